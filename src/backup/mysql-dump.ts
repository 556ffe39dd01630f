/**
 * Reading a `mariadb-dump` / `mysqldump` file without the `mariadb` client (docs/backup-and-restore.md,
 * "Old backup files").
 *
 * Piping a dump into the client runs whatever the file says: `\! cmd` runs a shell command as the
 * person restoring, `source` reads other files, `use` and qualified names reach other databases.
 * So a dump is never handed to the client. It is read here statement by statement, and only the
 * statements a dump of this service's database consists of are let through: table definitions,
 * rows made of literals, and the session settings the dump tool writes. Anything else (a client
 * command, another statement kind, a function call or sub-query among the values, another
 * database's name, a file cut short) is refused with one line naming it and where it is, before
 * the caller has run anything of that statement.
 */

/** Input that must be refused; the message is one line naming what is wrong and where. */
export class DumpRefused extends Error {}

export interface DumpStatement {
  /** `session`: SET, LOCK/UNLOCK TABLES, ALTER TABLE … DISABLE/ENABLE KEYS (safe to skip). */
  kind: 'create-table' | 'insert' | 'drop-table' | 'session';
  /** The unqualified table name, for the kinds that have one. */
  table: string | null;
  /** The statement as the server must run it: plain comments dropped, versioned comments opened. */
  sql: string;
  /** The line of the file the statement starts on (1-based). */
  line: number;
}

/** A statement longer than this is refused rather than held in memory (the server's own packet limit is 16 MiB by default). */
export const MAX_STATEMENT_CHARS = 64 * 1024 * 1024;

const IDENTIFIER = /^[A-Za-z0-9_$]{1,64}$/;

const SINGLE_QUOTED = /['\\\n]/g;
const DOUBLE_QUOTED = /["\\\n]/g;
const BACKTICKED = /[`\n]/g;

/**
 * Session variables a dump sets (and restores at its end). Anything else, and every `GLOBAL`
 * setting, is refused: a restore must not change the server.
 */
const SESSION_VARIABLES = new Set(
  ['character_set_client', 'character_set_results', 'collation_connection', 'time_zone', 'unique_checks', 'foreign_key_checks', 'sql_mode', 'sql_notes', 'sql_quote_show_create', 'autocommit'].map(
    (name) => name.toLowerCase(),
  ),
);

/** Storage engines a table of this service can have; others (CONNECT, FEDERATED, SPIDER…) read files or other servers. */
const ENGINES = new Set(['innodb', 'aria', 'myisam', 'memory']);

/**
 * The statements of a dump, in order. Reads the input as it arrives (memory is bounded by the
 * longest statement) and throws DumpRefused at the first thing that is not allowed; a file that
 * does not end with the dump tool's closing line ("-- Dump completed") is refused as cut short,
 * after its last complete statement has been yielded, so a caller must treat the whole load as
 * void when this throws, at any point.
 */
export async function* readMysqlDump(input: AsyncIterable<Buffer | string>): AsyncGenerator<DumpStatement> {
  const scanner = new DumpScanner();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let sawHeader = false;
  for await (const chunk of input) {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      throw new DumpRefused(`line ${scanner.line}: the file is not UTF-8 text, so it is not a dump of this service`);
    }
    for (const raw of scanner.push(text)) {
      yield classify(raw);
    }
    if (!sawHeader && scanner.head.length >= 64) {
      checkHeader(scanner.head);
      sawHeader = true;
    }
  }
  try {
    decoder.decode();
  } catch {
    throw new DumpRefused(`line ${scanner.line}: the file ends inside a UTF-8 character: it is cut short`);
  }
  if (!sawHeader) {
    checkHeader(scanner.head);
  }
  for (const raw of scanner.finish()) {
    yield classify(raw);
  }
}

function checkHeader(head: string): void {
  if (!/^-- (MariaDB|MySQL) dump/m.test(head)) {
    throw new DumpRefused('the file is not a dump made by mariadb-dump or mysqldump (no "-- MariaDB dump" line at its start)');
  }
}

interface RawStatement {
  text: string;
  line: number;
}

type Mode = 'code' | 'single' | 'double' | 'backtick' | 'line-comment' | 'block-comment';

/**
 * Splits the text into statements at `;` outside quotes and comments. Plain comments are dropped,
 * versioned comments (`/*!40101 … *\/`, `/*M!100100 … *\/`) are opened (the server runs their
 * contents), and MariaDB's sandbox marker (`/*M!999999\- … *\/`, a note to its own client) is
 * dropped. A backslash outside quotes is a client command and refused.
 */
class DumpScanner {
  line = 1;
  /** The first characters of the file, for the header check. */
  head = '';
  private mode: Mode = 'code';
  private inVersionedComment = false;
  private parts: string[] = [];
  private partsLength = 0;
  private statementLine = 1;
  private hasCode = false;
  private sawCompletedLine = false;
  private lastLineComment = '';
  /** Characters held back because a token (`--`, `/*!`, `*\/`) may continue in the next chunk. */
  private carry = '';

  *push(chunk: string): Generator<RawStatement> {
    if (this.head.length < 512) {
      this.head += chunk.slice(0, 512 - this.head.length);
    }
    const text = this.carry + chunk;
    this.carry = '';
    let start = 0;
    let index = 0;
    const keep = (end: number): void => {
      if (end > start) {
        this.append(text.slice(start, end));
      }
    };
    while (index < text.length) {
      const char = text[index];
      switch (this.mode) {
        case 'single':
        case 'double':
        case 'backtick': {
          // Jump to the next character that matters inside the quotes.
          const stops = this.mode === 'single' ? SINGLE_QUOTED : this.mode === 'double' ? DOUBLE_QUOTED : BACKTICKED;
          stops.lastIndex = index;
          const stop = stops.exec(text);
          if (!stop) {
            index = text.length;
            continue;
          }
          index = stop.index;
          const found = text[index];
          if (found === '\\') {
            if (index + 1 >= text.length) {
              keep(index);
              this.carry = text.slice(index);
              return;
            }
            if (text[index + 1] === '\n') {
              this.line += 1;
            }
            index += 2;
            continue;
          }
          if (found === '\n') {
            this.line += 1;
          } else {
            this.mode = 'code';
          }
          index += 1;
          continue;
        }
        case 'line-comment': {
          const end = text.indexOf('\n', index);
          if (end === -1) {
            this.lastLineComment += text.slice(index);
            index = text.length;
            start = index;
            continue;
          }
          this.lastLineComment += text.slice(index, end);
          this.noteLineComment();
          this.mode = 'code';
          index = end;
          start = end;
          continue;
        }
        case 'block-comment': {
          const end = text.indexOf('*/', index);
          const scanned = end === -1 ? text.slice(index) : text.slice(index, end);
          this.line += countNewlines(scanned);
          if (end === -1) {
            // Keep a trailing '*' in case the '/' comes with the next chunk.
            this.carry = text.endsWith('*') ? '*' : '';
            return;
          }
          this.mode = 'code';
          index = end + 2;
          start = index;
          continue;
        }
        case 'code':
          break;
      }
      // Code.
      if (char === '\n') {
        this.line += 1;
        index += 1;
        continue;
      }
      if (char === "'" || char === '"' || char === '`') {
        this.mode = char === "'" ? 'single' : char === '"' ? 'double' : 'backtick';
        this.markCode();
        index += 1;
        continue;
      }
      if (char === '\\') {
        throw new DumpRefused(`line ${this.line}: a client command ("${text.slice(index, index + 2)}"): a dump of this service has none, and restore never runs one`);
      }
      if (char === '-' || char === '#' || char === '/' || char === '*') {
        const rest = text.length - index;
        if (rest < 12 && !this.atEndOfInput(text, index)) {
          keep(index);
          this.carry = text.slice(index);
          return;
        }
        if (char === '#' || (char === '-' && text[index + 1] === '-' && (index + 2 >= text.length || /\s/.test(text[index + 2])))) {
          keep(index);
          this.mode = 'line-comment';
          this.lastLineComment = '';
          index += char === '#' ? 1 : 2;
          start = index;
          continue;
        }
        if (char === '/' && text[index + 1] === '*') {
          keep(index);
          const versioned = /^\/\*(M?)!(\d{0,6})/.exec(text.slice(index, index + 12));
          if (versioned && text[index + versioned[0].length] === '\\') {
            // MariaDB's sandbox marker, a note to its own client: nothing the server runs.
            this.mode = 'block-comment';
            index += 2;
            start = index;
            continue;
          }
          if (versioned) {
            if (this.inVersionedComment) {
              throw new DumpRefused(`line ${this.line}: a versioned comment inside another`);
            }
            this.inVersionedComment = true;
            index += versioned[0].length;
            start = index;
            this.append(' ');
            continue;
          }
          this.mode = 'block-comment';
          index += 2;
          start = index;
          continue;
        }
        if (char === '*' && text[index + 1] === '/' && this.inVersionedComment) {
          keep(index);
          this.inVersionedComment = false;
          index += 2;
          start = index;
          this.append(' ');
          continue;
        }
      }
      if (char === ';') {
        if (this.inVersionedComment) {
          throw new DumpRefused(`line ${this.line}: a statement ends inside a versioned comment`);
        }
        keep(index);
        index += 1;
        start = index;
        const statement = this.take();
        if (statement) {
          yield statement;
        }
        continue;
      }
      if (!/\s/.test(char)) {
        this.markCode();
      }
      index += 1;
    }
    keep(text.length);
  }

  /** At the end of the input: what was held back is read as it is, then the file must have ended cleanly. */
  *finish(): Generator<RawStatement> {
    this.final = true;
    if (this.carry) {
      const rest = this.carry;
      this.carry = '';
      yield* this.push(rest);
    }
    if (this.mode === 'line-comment') {
      this.noteLineComment();
      this.mode = 'code';
    }
    if (this.mode !== 'code' || this.inVersionedComment || this.hasCode) {
      throw new DumpRefused(`line ${this.statementLine}: the file ends in the middle of a statement: it is cut short`);
    }
    if (!this.sawCompletedLine) {
      throw new DumpRefused('the file does not end with the dump tool\'s "-- Dump completed" line: it is cut short (or was made with --skip-comments)');
    }
  }

  private final = false;

  private atEndOfInput(text: string, index: number): boolean {
    return this.final && index < text.length;
  }

  private noteLineComment(): void {
    // Only the last comment of the file counts: a statement after it un-completes the file.
    if (/^\s*Dump completed/.test(this.lastLineComment) && !this.hasCode) {
      this.sawCompletedLine = true;
    }
  }

  private markCode(): void {
    if (!this.hasCode) {
      this.hasCode = true;
      this.statementLine = this.line;
      this.sawCompletedLine = false;
    }
  }

  private append(piece: string): void {
    this.parts.push(piece);
    this.partsLength += piece.length;
    if (this.partsLength > MAX_STATEMENT_CHARS) {
      throw new DumpRefused(`line ${this.statementLine}: a statement longer than ${MAX_STATEMENT_CHARS} characters`);
    }
  }

  private take(): RawStatement | null {
    const text = this.parts.join('').trim();
    const line = this.statementLine;
    this.parts = [];
    this.partsLength = 0;
    this.hasCode = false;
    return text ? { text, line } : null;
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    count += 1;
  }
  return count;
}

/** One table name: a plain or backquoted identifier, never qualified by a database. */
function tableName(token: string, line: number): string {
  const name = token.startsWith('`') && token.endsWith('`') ? token.slice(1, -1) : token;
  if (!IDENTIFIER.test(name)) {
    throw new DumpRefused(`line ${line}: the table name ${token.slice(0, 80)} is not one this service uses`);
  }
  return name;
}

function classify(raw: RawStatement): DumpStatement {
  const { text, line } = raw;
  const sql = text;
  const words = /^([A-Za-z]+)(?:\s+([A-Za-z]+))?(?:\s+([A-Za-z]+))?/.exec(text);
  const first = words?.[1]?.toUpperCase() ?? '';
  const second = words?.[2]?.toUpperCase() ?? '';
  const refuse = (why: string): never => {
    throw new DumpRefused(`line ${line}: ${why}`);
  };

  if (first === 'SET') {
    checkSet(text, line);
    return { kind: 'session', table: null, sql, line };
  }
  if (first === 'UNLOCK' && /^UNLOCK\s+TABLES$/i.test(text)) {
    return { kind: 'session', table: null, sql, line };
  }
  if (first === 'LOCK') {
    const match = /^LOCK\s+TABLES\s+(`[^`]+`|\w+)\s+WRITE$/i.exec(text);
    if (!match) {
      refuse('a LOCK statement other than "LOCK TABLES `table` WRITE"');
    }
    return { kind: 'session', table: tableName(match![1], line), sql, line };
  }
  if (first === 'ALTER') {
    const match = /^ALTER\s+TABLE\s+(`[^`]+`|\w+)\s+(DISABLE|ENABLE)\s+KEYS$/i.exec(text);
    if (!match) {
      refuse('an ALTER statement other than the dump tool\'s "ALTER TABLE … DISABLE/ENABLE KEYS"');
    }
    return { kind: 'session', table: tableName(match![1], line), sql, line };
  }
  if (first === 'DROP') {
    const match = /^DROP\s+TABLE\s+IF\s+EXISTS\s+(`[^`]+`|\w+)$/i.exec(text);
    if (!match) {
      refuse('a DROP statement other than "DROP TABLE IF EXISTS `table`" (one table of this database)');
    }
    return { kind: 'drop-table', table: tableName(match![1], line), sql, line };
  }
  if (first === 'CREATE' && second === 'TABLE') {
    return { kind: 'create-table', table: checkCreateTable(text, line), sql, line };
  }
  if (first === 'INSERT' && second === 'INTO') {
    return { kind: 'insert', table: checkInsert(text, line), sql, line };
  }
  if (first === 'USE' || (first === 'CREATE' && (second === 'DATABASE' || second === 'SCHEMA'))) {
    return refuse(`"${first} ${second}…" names a database: a dump of one database has none, and restore writes only into its own`);
  }
  return refuse(`a ${first ? `"${[first, second].filter(Boolean).join(' ')}…"` : 'malformed'} statement: a dump of this service holds only tables and their rows`);
}

/** `SET NAMES x`, or `SET a = b, …` over user variables and the allowed session variables. */
function checkSet(text: string, line: number): void {
  if (/^SET\s+NAMES\s+\w+(\s+COLLATE\s+\w+)?$/i.test(text)) {
    return;
  }
  const body = text.replace(/^SET\s+/i, '');
  const assignment = /^\s*(@[A-Za-z_][\w$]*|@@(?:SESSION\.)?[A-Za-z_]\w*|[A-Za-z_]\w*)\s*=\s*(@@?[A-Za-z_][\w$.]*|'[^'\\]*'|[A-Za-z0-9_]+)\s*(,|$)/i;
  let rest = body;
  while (rest.length > 0) {
    const match = assignment.exec(rest);
    if (!match) {
      throw new DumpRefused(`line ${line}: a SET statement this restore does not allow: ${text.slice(0, 80)}`);
    }
    const target = match[1].toLowerCase();
    if (!target.startsWith('@') || target.startsWith('@@')) {
      const name = target.replace(/^@@(session\.)?/, '');
      if (name.startsWith('global') || !SESSION_VARIABLES.has(name)) {
        throw new DumpRefused(`line ${line}: SET ${match[1]}: only session settings a dump writes are allowed`);
      }
    }
    const value = match[2].toLowerCase();
    if (value.startsWith('@@') && (value.includes('global.') || !SESSION_VARIABLES.has(value.replace(/^@@(session\.)?/, '')))) {
      throw new DumpRefused(`line ${line}: SET reads ${match[2]}: only session settings a dump writes are allowed`);
    }
    rest = rest.slice(match[0].length);
    if (match[3] !== ',' && rest.trim().length > 0) {
      throw new DumpRefused(`line ${line}: a SET statement this restore does not allow: ${text.slice(0, 80)}`);
    }
  }
}

/** Words that may stand before `(` in a table definition: types and key clauses, never a function. */
const DEFINITION_WORDS = new Set(
  [
    'tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'decimal', 'numeric', 'float', 'double', 'real', 'bit',
    'char', 'varchar', 'binary', 'varbinary', 'datetime', 'timestamp', 'time', 'year', 'enum', 'set',
    'key', 'index', 'unique', 'primary', 'foreign', 'references', 'fulltext',
  ],
);

/** A plain table definition: no other database, no sub-query, no expression, no engine or option that reaches outside. */
function checkCreateTable(text: string, line: number): string {
  const match = /^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(`[^`]+`|\w+)\s*\(/i.exec(text);
  if (!match) {
    throw new DumpRefused(`line ${line}: a CREATE TABLE statement without a column list`);
  }
  const table = tableName(match[1], line);
  // Strings (comments on columns, defaults) are blanked first; then names qualified by a database.
  const code = text.slice(match[0].length).replace(/'(?:[^'\\]|\\.|'')*'/g, "''");
  if (/`\s*\.\s*[`A-Za-z_]|\b[A-Za-z_]\w*\s*\.\s*[`A-Za-z_]/.test(code)) {
    throw new DumpRefused(`line ${line}: the definition of ${table} names another database`);
  }
  const words = code.replace(/`(?:[^`]|``)*`/g, '``');
  const forbidden = /\b(SELECT|LIKE|AS|CHECK|DIRECTORY|CONNECTION|UNION|PARTITION)\b/i.exec(words);
  if (forbidden) {
    throw new DumpRefused(`line ${line}: the definition of ${table} uses ${forbidden[1].toUpperCase()}, which a table of this service never does`);
  }
  for (const call of words.matchAll(/\b([A-Za-z_]\w*)\s*\(/g)) {
    if (!DEFINITION_WORDS.has(call[1].toLowerCase())) {
      throw new DumpRefused(`line ${line}: the definition of ${table} calls ${call[1]}(…), which a table of this service never does`);
    }
  }
  const engine = /\bENGINE\s*=?\s*(\w+)/i.exec(words);
  if (engine && !ENGINES.has(engine[1].toLowerCase())) {
    throw new DumpRefused(`line ${line}: the table ${table} uses the ${engine[1]} engine, which a table of this service never does`);
  }
  return table;
}

const INSERT_HEAD = /^INSERT\s+INTO\s+(`[^`]+`|\w+)\s*(?:\(\s*(?:`[^`]+`|\w+)(?:\s*,\s*(?:`[^`]+`|\w+))*\s*\)\s*)?VALUES\s*/iy;
const UNQUOTED_LITERAL = /(?:0x[0-9A-Fa-f]+|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|NULL|[xX]'[0-9A-Fa-f]*'|[bB]'[01]*')/y;
const INTRODUCER = /_(?:binary|utf8mb4|utf8|latin1)\s*(?=')/y;

/**
 * `INSERT INTO t [(columns)] VALUES (…), (…)` whose values are literals only: strings, numbers,
 * NULL and hexadecimal/bit values. A function call or sub-query could read files or other tables.
 */
function checkInsert(text: string, line: number): string {
  INSERT_HEAD.lastIndex = 0;
  const head = INSERT_HEAD.exec(text);
  if (!head) {
    throw new DumpRefused(`line ${line}: an INSERT statement that is not "INSERT INTO \`table\` VALUES (…)"`);
  }
  const table = tableName(head[1], line);
  const notLiteral = (at: number): never => {
    throw new DumpRefused(`line ${line}: a value for ${table} is not a literal (near "${text.slice(at, at + 40)}")`);
  };
  const skipSpace = (at: number): number => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) {
      at += 1;
    }
    return at;
  };
  let index = head[0].length;
  for (;;) {
    if (text[index] !== '(') {
      throw new DumpRefused(`line ${line}: the values for ${table} are not a list of rows`);
    }
    index += 1;
    for (;;) {
      index = skipSpace(index);
      INTRODUCER.lastIndex = index;
      if (INTRODUCER.test(text)) {
        index = INTRODUCER.lastIndex;
      }
      if (text[index] === "'") {
        index = endOfString(text, index + 1) ?? notLiteral(index);
      } else {
        UNQUOTED_LITERAL.lastIndex = index;
        if (!UNQUOTED_LITERAL.test(text)) {
          notLiteral(index);
        }
        index = UNQUOTED_LITERAL.lastIndex;
      }
      index = skipSpace(index);
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === ')') {
        index += 1;
        break;
      }
      notLiteral(index);
    }
    index = skipSpace(index);
    if (index >= text.length) {
      return table;
    }
    if (text[index] !== ',') {
      throw new DumpRefused(`line ${line}: unexpected text after the rows for ${table} (near "${text.slice(index, index + 40)}")`);
    }
    index = skipSpace(index + 1);
  }
}

/** The index just past the closing quote of a string whose body starts at `from`, or null if it has none. */
function endOfString(text: string, from: number): number | null {
  const stops = /['\\]/g;
  stops.lastIndex = from;
  for (let stop = stops.exec(text); stop; stop = stops.exec(text)) {
    if (stop[0] === '\\') {
      stops.lastIndex = stop.index + 2;
    } else if (text[stop.index + 1] === "'") {
      stops.lastIndex = stop.index + 2;
    } else {
      return stop.index + 1;
    }
  }
  return null;
}
