/**
 * Records of an import file holding one JSON array (`[{…}, {…}]`, on one line or pretty-printed over many), read
 * from its bytes as they stream in. A scanner that follows only strings and brackets cuts each element out of the
 * array; the element is then decoded as UTF-8 (strictly, unless asked to replace), parsed on its own and checked
 * as an NDJSON line is (`import-records.ts`): the same reasons and limits, reported at the line where the element
 * starts, with its number in the array. Memory holds one element, at most `maxLineBytes` of it.
 *
 * Streaming JSON parsers (stream-json, @streamparser/json) stop for good at the first syntax error, decode
 * invalid UTF-8 silently and give no lines; cutting elements out by bytes lets a broken one cost only itself.
 * Where an element ends when it is broken — the resynchronisation rule:
 *
 *   Elements are separated by the commas at the array's own level; one that does not parse is reported and
 *   reading goes on with the next. When brackets do not balance, the scanner resynchronises thus:
 *   - a string ends at the end of its line (JSON strings hold no raw line break);
 *   - a closing bracket closes the innermost open bracket of its kind with those inside it; one with no open
 *     bracket of its kind is ignored;
 *   - a line whose first character is `{` or `[` at no more indentation than the array's first element starts
 *     the next element, even while the current one is still open (the open one is reported as not closed);
 *   - an element still open at the end of the file is reported; so is an array never closed, and an element
 *     not preceded by a comma.
 *   An element broken so is reported as malformed JSON and never parsed. On an array written on one line, a
 *   bracket left open thus costs the rest of that line. Whatever follows the array's closing `]` is reported
 *   once and not read.
 */
import type { ImportLineOptions } from './import-lines.ts';
import { concatBytes, firstInvalidUtf8, invalidUtf8Reason, tooLongReason } from './import-lines.ts';
import { checkedItem } from './import-records.ts';
import type { ImportItem } from './import-records.ts';
import { MAX_IMPORT_LINE_BYTES } from './limits.ts';

const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Brackets whose kind is remembered; deeper ones are only counted (the record is refused for its depth anyway). */
const STACK_SIZE = 1024;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const count = new Intl.NumberFormat('en-US');
const isBlank = (byte: number) => byte === 0x20 || byte === LF || byte === 0x0d || byte === 0x09;

interface Element {
  line: number;
  /** Column (0-based, in bytes) of the element's first byte on its line. */
  column: number;
  number: number;
  parts: Uint8Array[];
  size: number;
  overflow: boolean;
  /** Why the element cannot be parsed, found while cutting it out. */
  broken?: string;
  depth: number;
  inString: boolean;
  escape: boolean;
}

class ArrayScanner {
  readonly out: ImportItem[] = [];
  private phase: 'before' | 'between' | 'element' | 'after' | 'done' = 'before';
  private line = 1;
  /** Absolute offset of the current line's first byte, and of the current chunk's. */
  private lineStart = 0;
  private offset = 0;
  /** Nothing but blanks yet on the current line. */
  private atLineStart = true;
  private elements = 0;
  private expectComma = false;
  private firstColumn = 0;
  private element: Element | undefined;
  /** Where the current element's bytes start in the current chunk. */
  private from = 0;
  private closedOn = 0;
  /** The kinds of the current element's open brackets, outermost first (one element is open at a time). */
  private readonly stack = new Uint8Array(STACK_SIZE);

  constructor(private readonly options: ImportLineOptions) {}

  feed(chunk: Uint8Array): void {
    if (this.stopped()) return;
    let i = 0;
    // A byte-order mark opens some files saved on Windows; it is not part of the JSON.
    if (this.offset === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    this.from = 0;
    for (; i < chunk.length && !this.stopped(); i++) {
      const byte = chunk[i];
      if (this.phase === 'element') {
        const element = this.element!;
        // Inside a string, only its end matters: the hot path of a large file.
        if (element.inString) {
          if (element.escape) element.escape = false;
          else if (byte === BACKSLASH) element.escape = true;
          else if (byte === QUOTE) element.inString = false;
          else if (byte === LF) {
            element.inString = false;
            element.broken ??= `a string is not closed on line ${count.format(this.line)}`;
            this.newLine(i);
          }
          continue;
        }
        if (!this.inElement(chunk, i, byte)) this.outside(chunk, i, byte);
      } else this.outside(chunk, i, byte);
      if (byte === LF) this.newLine(i);
      else if (!isBlank(byte)) this.atLineStart = false;
    }
    if (this.phase === 'element' && this.from < chunk.length) this.take(chunk.slice(this.from));
    this.offset += chunk.length;
  }

  /** After a fatal error, nothing more is read. (A method: TypeScript keeps a narrowed field narrowed past calls.) */
  private stopped(): boolean {
    return this.phase === 'done';
  }

  end(): void {
    if (this.phase === 'before') this.fatal(1, 'no JSON array: the file is empty');
    else if (this.phase === 'element') {
      const element = this.element!;
      if (element.depth > 0 || element.inString) element.broken ??= 'the file ends before this record is closed';
      else element.broken ??= 'the file ends before the array is closed by ]';
      this.finishElement();
    } else if (this.phase === 'between') this.report(this.elements + 1, this.line, 'the file ends before the array is closed by ]: is it complete?');
  }

  private newLine(i: number): void {
    this.line++;
    this.lineStart = this.offset + i + 1;
    this.atLineStart = true;
  }

  /** A byte of an element, outside its strings; false when the byte ends the element and belongs to the array. */
  private inElement(chunk: Uint8Array, i: number, byte: number): boolean {
    let element = this.element!;
    if ((byte === OPEN_OBJECT || byte === OPEN_ARRAY) && this.atLineStart && element.depth > 0 && this.offset + i - this.lineStart <= this.firstColumn) {
      element.broken ??= `the record is not closed before the next one starts on line ${count.format(this.line)}`;
      this.take(chunk.subarray(this.from, i));
      this.finishElement();
      element = this.start(chunk, i);
    }
    switch (byte) {
      case QUOTE:
        element.inString = true;
        return true;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (element.depth < STACK_SIZE) this.stack[element.depth] = byte;
        element.depth++;
        return true;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (element.depth === 0) {
          if (byte === CLOSE_ARRAY) return this.endScalar(chunk, i);
          element.broken ??= `a } on line ${count.format(this.line)} closes nothing`;
          return true;
        }
        this.close(element, byte);
        if (element.depth === 0) {
          this.take(chunk.subarray(this.from, i + 1));
          this.finishElement();
        }
        return true;
      case COMMA:
        return element.depth > 0 || this.endScalar(chunk, i);
      default:
        return true;
    }
  }

  private close(element: Element, byte: number): void {
    const opener = byte === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY;
    const top = Math.min(element.depth, STACK_SIZE) - 1;
    if (element.depth > STACK_SIZE || this.stack[top] === opener) {
      element.depth--;
      return;
    }
    const what = `a ${String.fromCharCode(byte)} on line ${count.format(this.line)}`;
    for (let at = top - 1; at >= 0; at--) {
      if (this.stack[at] === opener) {
        element.broken ??= `${what} closes a ${String.fromCharCode(opener)} while a ${String.fromCharCode(this.stack[top])} inside it is still open`;
        element.depth = at;
        return;
      }
    }
    element.broken ??= `${what} closes nothing`;
  }

  /** A scalar element (`3`, `"text"`) ends before the `,` or `]` at `i`. */
  private endScalar(chunk: Uint8Array, i: number): false {
    this.take(chunk.subarray(this.from, i));
    this.finishElement();
    return false;
  }

  /** A byte between elements, before the array or after it. */
  private outside(chunk: Uint8Array, i: number, byte: number): void {
    if (isBlank(byte) || this.phase === 'done') return;
    if (this.phase === 'before') {
      if (byte === OPEN_ARRAY) this.phase = 'between';
      else {
        const hint = byte === OPEN_OBJECT ? ' (one object per line is NDJSON: read it as NDJSON)' : '';
        this.fatal(this.line, `not a JSON array: the file must start with [${hint}`);
      }
    } else if (this.phase === 'after') {
      this.fatal(this.line, `text after the array closed on line ${count.format(this.closedOn)}: not read`);
    } else if (byte === COMMA) {
      if (!this.expectComma) this.report(++this.elements, this.line, 'an empty element: a comma with no record before it');
      this.expectComma = false;
    } else if (byte === CLOSE_ARRAY) {
      if (!this.expectComma && this.elements > 0) this.report(this.elements + 1, this.line, 'a comma before the ] that closes the array, with no record after it');
      this.phase = 'after';
      this.closedOn = this.line;
    } else {
      const element = this.start(chunk, i);
      if (this.expectComma) element.broken = 'no comma between this record and the one before it';
      this.inElement(chunk, i, byte);
    }
  }

  private start(chunk: Uint8Array, i: number): Element {
    const column = this.offset + i - this.lineStart;
    if (this.elements === 0) this.firstColumn = column;
    this.element = {
      line: this.line,
      column,
      number: ++this.elements,
      parts: [],
      size: 0,
      overflow: false,
      depth: 0,
      inString: false,
      escape: false,
    };
    this.phase = 'element';
    this.from = i;
    return this.element;
  }

  private take(part: Uint8Array): void {
    const element = this.element!;
    element.size += part.length;
    if (element.overflow) return;
    if (element.size > (this.options.maxLineBytes ?? MAX_IMPORT_LINE_BYTES)) {
      element.overflow = true;
      element.parts = [];
    } else if (part.length > 0) element.parts.push(part);
  }

  private finishElement(): void {
    const element = this.element!;
    this.element = undefined;
    this.phase = 'between';
    this.expectComma = true;
    this.out.push({ ...this.itemOf(element), element: element.number });
  }

  private itemOf(element: Element): ImportItem {
    const { line } = element;
    if (element.overflow) return { line, error: tooLongReason('record', element.size) };
    const bytes = concatBytes(element.parts, element.size);
    let text: string;
    try {
      text = strict.decode(bytes);
    } catch {
      if (!this.options.replaceInvalidUtf8) return { line, error: invalidUtf8Reason(bytes[firstInvalidUtf8(bytes)], placeOf(element, bytes)) };
      text = lenient.decode(bytes);
    }
    if (element.broken) return { line, error: `malformed JSON (${element.broken})` };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { line, error: `malformed JSON (${error instanceof Error ? error.message : String(error)})` };
    }
    return checkedItem(line, value, bytes.length);
  }

  private report(element: number, line: number, reason: string): void {
    this.out.push({ line, element, error: `malformed JSON (${reason})` });
  }

  private fatal(line: number, reason: string): void {
    this.out.push({ line, element: this.elements + 1, error: reason, fatal: true });
    this.phase = 'done';
  }
}

/** Where the first byte that is not UTF-8 sits: its line, and its position on that line. */
function placeOf(element: Element, bytes: Uint8Array): string {
  const at = firstInvalidUtf8(bytes);
  let line = element.line;
  let lineStart = -element.column;
  for (let i = bytes.indexOf(LF); i !== -1 && i < at; i = bytes.indexOf(LF, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `on line ${count.format(line)}, at position ${count.format(at - lineStart + 1)}`;
}

/** The elements of the JSON array a file holds, each a record or the reason it is not one (see the rule above). */
export async function* jsonArrayItems(chunks: AsyncIterable<Uint8Array>, options: ImportLineOptions = {}): AsyncGenerator<ImportItem> {
  const scanner = new ArrayScanner(options);
  for await (const chunk of chunks) {
    scanner.feed(chunk);
    yield* scanner.out.splice(0);
  }
  scanner.end();
  yield* scanner.out.splice(0);
}
