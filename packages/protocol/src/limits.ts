/**
 * The server's default limits on what a record may be, written once: the server enforces them, and the importers
 * (the CLI's and the console's) check each line against the same numbers where they read it, so a record the
 * server would refuse is reported at its own line instead of costing the batch it travels in.
 */

/** Largest record, JSON-encoded with its objectID, in bytes: 100 KB, as Algolia's plans. */
export const MAX_RECORD_BYTES = 100 * 1024;

/** Deepest nesting of arrays and objects in a request body (the body itself is the first level). */
export const MAX_JSON_DEPTH = 64;

/** Levels a batch body puts above each record: `{"requests": [{"body": record}]}`. */
export const BATCH_RECORD_DEPTH = 3;

/** Deepest nesting a record may have (the record itself is level 1) to travel in a batch the server accepts. */
export const MAX_RECORD_NESTING = MAX_JSON_DEPTH - BATCH_RECORD_DEPTH;

/**
 * Longest line (or CSV row, quoted line breaks included) an importer reads, in bytes: ten times the largest
 * record, room for indentation and escapes. Past it the line is skipped unread, so one runaway line costs neither
 * memory nor the lines after it.
 */
export const MAX_IMPORT_LINE_BYTES = 10 * MAX_RECORD_BYTES;
