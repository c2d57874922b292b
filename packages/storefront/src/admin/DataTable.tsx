/** A titled table of rows with an empty-state line; cells are text (record values are never rendered as HTML). */
import type { ReactNode } from 'react';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  /** Numbers are right-aligned so their digits line up. */
  numeric?: boolean;
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
      {rows.length === 0 ? (
        <p className="vt-admin-empty">{empty}</p>
      ) : (
        <table>
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
              <tr key={rowKey(row, index)}>
                {columns.map((column, columnIndex) =>
                  columnIndex === 0 ? (
                    <th key={column.label} scope="row">
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.label} className={column.numeric ? 'vt-num' : undefined}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
