/**
 * The console's tables: one row per item, the row's name as its row header, cells as text (record values are
 * never rendered as HTML), numbers right-aligned so their digits line up. `DataTable` adds a title and an
 * empty-state line (the analytics tables).
 */
import type { ReactNode } from 'react';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
  /** The column naming the row (a `<th scope="row">`); the first column when none says so. */
  header?: boolean;
  /** The row's buttons. */
  actions?: boolean;
}

function cellClass(column: Column<unknown>): string | undefined {
  if (column.numeric) return 'vt-num';
  return column.actions ? 'vt-console-actions' : undefined;
}

export function Table<T>({ label, rows, columns, rowKey, rowData }: {
  /** The table's accessible name. */
  label?: string;
  rows: readonly T[];
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T, index: number) => string;
  /** A `data-*` attribute per row, for tests and styles (`{ 'data-index': name }`). */
  rowData?: (row: T) => Record<`data-${string}`, string>;
}) {
  const headerAt = Math.max(0, columns.findIndex((column) => column.header));
  return (
    <table className="vt-console-table" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col" className={column.numeric ? 'vt-num' : undefined}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} {...rowData?.(row)}>
            {columns.map((column, columnIndex) =>
              columnIndex === headerAt ? (
                <th key={column.label} scope="row" className={cellClass(column as Column<unknown>)}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.label} className={cellClass(column as Column<unknown>)}>
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DataTable<T>({ title, rows, columns, rowKey, empty }: {
  title: string;
  rows: readonly T[];
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T, index: number) => string;
  empty: string;
}) {
  return (
    <section className="vt-admin-table" aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? <p className="vt-admin-empty">{empty}</p> : <Table rows={rows} columns={columns} rowKey={rowKey} />}
    </section>
  );
}
