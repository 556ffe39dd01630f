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

/**
 * A message for the operator, printed without a stack. Exit code 2 unless told: a refusal (bad
 * arguments, an unknown name, an input that cannot be used) that changed nothing. Pass 1 when the
 * command failed part-way, and say in the message what state is left.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
  }
}
