/**
 * The identity of a source row in the tables that may have no id column (docs/moving-from-original.md,
 * "Row identity"). Pure, no framework imports.
 *
 * A row is identified by its table's key columns (`id` where the source has it, else the source's own
 * unique key, else the table's natural key such as `uuid`), or, where there are none, by a hash of the
 * whole row. Rows whose identity repeats (identical rows of a table without a key, a key the original
 * never enforced) are told apart by their place among the copies: `…#2`, `…#3`. The source is read in
 * an order where such rows are adjacent, so the copy number is the same on every run of one snapshot.
 */

import { createHash } from 'node:crypto';
import { text, type SourceRow, type SourceValue } from './original-mapping';

/** How a table's rows are identified and paged. */
export interface IdentityPlan {
  /** The columns whose values identify a row; empty: a hash of every column. */
  key: string[];
  /** True when the source guarantees the key unique (primary key or unique key over NOT NULL columns): paged by it. */
  unique: boolean;
  /** Every column read (the key's and the wanted ones; for a hash, every column of the table). */
  columns: string[];
}

/**
 * The longest identity the import gives a row (copy suffix included, up to 99,999 copies): a
 * sender's id holds 64 characters, and a feature may prefix its table's name (`periodmatch2:`).
 */
export const MAX_IDENTITY_LENGTH = 48;

/** The longest key text used as it is (a hash is 42 characters): room for a copy suffix. */
const MAX_KEY_TEXT = 42;

const HASH_PREFIX = 'h:';
const PRINTABLE = /^[\x21-\x7e]+$/;

/** Characters of the hash kept in an identity (160 bits). */
const HASH_CHARACTERS = 40;

function valueText(value: SourceValue | undefined): string | null {
  if (Buffer.isBuffer(value)) {
    return `0x${value.toString('hex')}`;
  }
  return text(value);
}

/** A hash of the given columns of a row: names and values, NULL told apart from any text. */
export function rowHash(row: SourceRow, columns: readonly string[]): string {
  const canonical = JSON.stringify([...columns].sort().map((column) => [column, valueText(row[column])]));
  return `${HASH_PREFIX}${createHash('sha256').update(canonical).digest('hex').slice(0, HASH_CHARACTERS)}`;
}

/** The identity of a row before copies are numbered: its key values (joined by `/`), or its hash. */
export function baseIdentity(row: SourceRow, plan: IdentityPlan): string {
  if (plan.key.length === 0) {
    return rowHash(row, plan.columns);
  }
  const joined = plan.key.map((column) => text(row[column]) ?? 'NULL').join('/');
  // A sender's id is printable ASCII without spaces, with room for a copy suffix: any other key
  // (a long text, spaces, other characters) is identified by its hash.
  return PRINTABLE.test(joined) && joined.length <= MAX_KEY_TEXT && !joined.startsWith(HASH_PREFIX) ? joined : rowHash(row, plan.key);
}

export interface RowWithIdentity {
  /** The row's identity, unique in the table: the sender's id the features store it under. */
  id: string;
  row: SourceRow;
  /** 1 for the first row with this base identity, 2 for the second, … */
  copy: number;
}

/**
 * Numbers the copies of repeated identities. Rows come in an order where rows of one identity are
 * adjacent, so only the previous row's identity is remembered, whatever the size of the table.
 */
export class RowIdentities {
  private previous: string | undefined;
  private copies = 0;

  constructor(private readonly plan: IdentityPlan) {}

  next(row: SourceRow): RowWithIdentity {
    const base = baseIdentity(row, this.plan);
    this.copies = base === this.previous ? this.copies + 1 : 1;
    this.previous = base;
    return { id: this.copies === 1 ? base : `${base}#${this.copies}`, row, copy: this.copies };
  }
}
