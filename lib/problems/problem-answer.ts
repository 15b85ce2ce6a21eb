import type { Lifecycle } from '../lifecycle/lifecycle.js'
import type { AnswerProblem } from '../routing/route-hooks.js'
import type { ProblemChoice } from './problem-choice.js'
import type { ProblemWriting } from './problem-writing.js'

/**
 * How a request that no route serves a version to is answered: a retired version's Sunset and Link headers, then
 * the problem its outcome calls for, through the writers.
 */
export function createProblemAnswer (lifecycle: Pick<Lifecycle, 'retirementHeaders'>, problemFor: ProblemChoice, writing: ProblemWriting): AnswerProblem {
  return function answerProblem (outcome, request, reply) {
    lifecycle.retirementHeaders(reply, outcome)
    writing.write(problemFor(outcome, request.raw), request, reply)
  }
}
