/** Punishment ids and ban ids are both positive integers today: anything else names no record. Pure. */
export function numericIdOf(id: string): number | null {
  return /^[1-9][0-9]{0,15}$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : null;
}
