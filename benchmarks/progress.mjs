// Progress of a long benchmark for the person waiting on it: "k of N, ~M min left". Steps differ in length (a
// server with 11 scenarios runs longer than one with 6), so the estimate goes by each step's planned seconds of
// load, scaled by how long the finished steps really took against their plan: server start-up, autocannon's
// set-up and a busy host all add to the plan, and the estimate learns how much as the run goes.

/** How long an autocannon run of `duration` seconds lasts: it stops at its first one-second sample after that. */
export const loadSeconds = duration => Math.max(1, Math.ceil(duration))

/** Seconds left: what is still planned, at the pace the finished steps kept (the plan as it is before any). */
export function secondsLeft ({ elapsed, plannedDone, plannedTotal }) {
  const pace = plannedDone > 0 ? elapsed / plannedDone : 1
  return (plannedTotal - plannedDone) * pace
}

/** A duration as a person reads it: seconds up to a minute and a half, whole minutes after. */
export function humanDuration (seconds) {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`
}

/** `n` and the noun, in the plural unless `n` is 1: for the line that announces a run's plan. */
export const plural = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`

/**
 * Counts `count` steps planned to take `plannedTotal` seconds in all; `step(planned)` records one finished step
 * of `planned` seconds and returns the line to print. `now` is there for the tests.
 */
export function progress (count, plannedTotal, now = Date.now) {
  const started = now()
  let done = 0
  let plannedDone = 0
  return {
    step (planned) {
      done++
      plannedDone += planned
      const elapsed = (now() - started) / 1000
      return `${done} of ${count}, ${humanDuration(elapsed)} in, ~${humanDuration(secondsLeft({ elapsed, plannedDone, plannedTotal }))} left`
    }
  }
}
