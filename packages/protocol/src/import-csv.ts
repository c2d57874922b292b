/**
 * CSV rows of an import file as records: a header row names the attributes (`csv-values.ts` types the cells),
 * then one record per row. A quoted cell may hold line breaks, so a row may span lines; a quote left open must
 * not swallow the rest of the file. The rule:
 *
 *   A row whose quote is still open at the end of its line continues on the next lines until the quote closes.
 *   If the file ends first, a line inside cannot be read, the row grows past `MAX_IMPORT_LINE_BYTES`, or the
 *   lines so joined do not parse as one row with the header's number of cells, the row is reported at the line
 *   where the quote opened, and reading starts again at the line after it, each line a fresh row. (Joined lines
 *   "do not parse as one row" too when a quote closing on them is followed by anything but a comma or the end of
 *   the line.)
 *
 * Splitting a row into cells is csv-parse's job, passed in as `parseRows` (its Node or browser build).
 */
import { buildRecord, parseColumn } from './csv-values.ts';
import type { Column } from './csv-values.ts';
import type { ImportLine } from './import-lines.ts';
import { checkedItem } from './import-records.ts';
import type { ImportItem } from './import-records.ts';
import { MAX_IMPORT_LINE_BYTES } from './limits.ts';

/** Parses CSV text into rows of cells; throws on malformed CSV. */
export type CsvRowParser = (text: string) => string[][];

const count = new Intl.NumberFormat('en-US');

interface QuoteState {
  open: boolean;
  /** A quote closed a cell but something other than a comma or the line's end follows it (`"Chair",3` is fine). */
  strayClose: boolean;
}

/**
 * Follows quotes through one line (RFC 4180: a quote opens a quoted cell only at the cell's start; `""` inside
 * one is a quote). A quote inside an unquoted cell (`5" screen`) is text, as csv-parse's relax_quotes reads it.
 */
function scanQuotes(text: string, state: QuoteState): QuoteState {
  let open = state.open;
  let strayClose = state.strayClose;
  let cellStart = !open;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (open) {
      if (char !== '"') continue;
      if (text[i + 1] === '"') i++;
      else {
        open = false;
        if (i + 1 < text.length && text[i + 1] !== ',') strayClose = true;
      }
    } else if (char === ',') cellStart = true;
    else {
      if (char === '"' && cellStart) open = true;
      cellStart = false;
    }
  }
  return { open, strayClose };
}

function unclosed(line: number, why: string): ImportItem {
  return { line, error: `a quote opened on this line is never closed (${why}); reading went on at line ${line + 1}` };
}

/** Reads CSV records; see the module comment for how a quote left open is reported. */
export async function* csvItems(lines: AsyncIterable<ImportLine>, parseRows: CsvRowParser): AsyncGenerator<ImportItem> {
  const source = lines[Symbol.asyncIterator]();
  // Lines read ahead for a row that turned out broken, to be read again.
  const replay: ImportLine[] = [];
  const next = async (): Promise<ImportLine | undefined> => {
    if (replay.length > 0) return replay.shift();
    const result = await source.next();
    return result.done ? undefined : result.value;
  };
  let columns: Column[] | undefined;
  for (let first = await next(); first; first = await next()) {
    if ('error' in first) {
      yield first;
      continue;
    }
    if (first.text.trim() === '') continue;
    const gathered: ImportLine[] = [first];
    let state = scanQuotes(first.text, { open: false, strayClose: false });
    let bytes = first.bytes;
    let broken: string | undefined;
    while (state.open && broken === undefined) {
      const unit = await next();
      if (!unit) broken = 'the file ends first';
      else {
        gathered.push(unit);
        if ('error' in unit) broken = `line ${unit.line} cannot be read`;
        else if ((bytes += unit.bytes + 1) > MAX_IMPORT_LINE_BYTES) broken = `the row would pass ${count.format(MAX_IMPORT_LINE_BYTES)} bytes`;
        else state = scanQuotes(unit.text, state);
      }
    }
    const spans = gathered.length > 1;
    const resync = (why: string): ImportItem => {
      replay.unshift(...gathered.slice(1));
      return unclosed(first!.line, why);
    };
    const headerError = (why: string): ImportItem => ({ line: first!.line, error: `the header row cannot be used (${why}): nothing was read`, fatal: true });
    // Joined lines whose quotes do not pair up as cells are a quote left open, not a row: csv-parse, lenient with
    // quotes, would read them as one.
    if (broken === undefined && gathered.length > 1 && state.strayClose) broken = `the lines up to ${gathered[gathered.length - 1].line} do not form a row`;
    if (broken !== undefined) {
      yield columns ? resync(broken) : headerError(`a quote opened on it is never closed: ${broken}`);
      if (!columns) return;
      continue;
    }
    let rows: string[][];
    try {
      // A row without quotes is its cells between commas: csv-parse, called per row, is kept for the others
      // (called for every row it makes reading 4.5 times slower).
      rows = spans || first.text.includes('"') ? parseRows(gathered.map((unit) => (unit as { text: string }).text).join('\n')) : [first.text.split(',')];
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!columns) {
        yield headerError(`not valid CSV: ${reason}`);
        return;
      }
      yield spans ? resync(`the lines up to ${gathered[gathered.length - 1].line} do not form a row`) : { line: first.line, error: `not valid CSV (${reason})` };
      continue;
    }
    const cells = rows.length === 1 ? rows[0] : undefined;
    if (!columns) {
      const parsed = (cells ?? []).map(parseColumn);
      const bad = parsed.find((column) => typeof column === 'string');
      if (!cells || bad !== undefined) {
        yield headerError((bad as string | undefined) ?? 'not one row');
        return;
      }
      columns = parsed as Column[];
      continue;
    }
    if (!cells || cells.length !== columns.length) {
      const found = cells ? cells.length : 0;
      yield spans
        ? resync(`the lines up to ${gathered[gathered.length - 1].line} do not form a row of ${columns.length} cells`)
        : { line: first.line, error: `${found} cells where the header has ${columns.length}` };
      continue;
    }
    try {
      yield checkedItem(first.line, buildRecord(columns, cells));
    } catch (error) {
      const idColumn = columns.findIndex((column) => column.path.join('.') === 'objectID');
      yield { line: first.line, error: error instanceof Error ? error.message : String(error), objectID: cells[idColumn] || undefined };
    }
  }
}
