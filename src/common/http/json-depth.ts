/** A body nested deeper than this (the top-level object or array is level 1) is refused. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `value` nests objects/arrays deeper than `max` levels. Iterative, so a body of
 * thousands of levels cannot overflow the stack here (the validation pipe's recursion did: a
 * RangeError and a 500).
 */
export function exceedsJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  // A raw body (the evidence upload's picture) is bytes, not JSON.
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) {
    return false;
  }
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > max) {
      return true;
    }
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) {
        stack.push([child as object, depth + 1]);
      }
    }
  }
  return false;
}
