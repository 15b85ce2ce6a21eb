/** Where the command writes, and where it reads its paths from: the process's, or a test's. */
export interface Io {
  readonly stdout: { write (text: string): unknown }
  readonly stderr: { write (text: string): unknown }
  /** What `--app` and `--dir` are resolved from. */
  readonly cwd: string
}
