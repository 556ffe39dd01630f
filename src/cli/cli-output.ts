/** Output of a command: with --json exactly one JSON object on stdout, else readable lines. */
export class CliOutput {
  constructor(readonly json: boolean) {}

  result(value: Record<string, unknown>, human: string): void {
    process.stdout.write(this.json ? `${JSON.stringify(value)}\n` : `${human}\n`);
  }

  /** Progress and notes go to stderr, so stdout stays one JSON object. */
  note(message: string): void {
    process.stderr.write(`${message}\n`);
  }
}

/** A failure the user caused (bad arguments, unknown name): printed without a stack, exit code 1 unless told. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
