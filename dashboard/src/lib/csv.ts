//! CSV text written in the browser (a panel's rows): RFC 4180 quoting, and a cell a spreadsheet would read as a
//! formula (a visitor-controlled page path or referrer starting with =, +, -, @, tab or return) prefixed with a
//! quote, as the daemon's own exports do.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: guarded against formulas, quoted when it holds a comma, quote or line break. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows of cells as CSV text, lines ended by CRLF. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
