/**
 * An RFC 4180 file as core/csv.ts writes it, read back into cells: an empty unquoted field is null, `""` an empty
 * string (docs/api.md, CSV), so a test can compare it with another form of the same table cell by cell.
 */
export function csvCells(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let i = 0;
  while (i < text.length) {
    let value: string | null;
    if (text[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else v += text[i++];
      }
      value = v;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r') end++;
      value = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(value);
    if (text[i] === ',') i++;
    else {
      i += 2; // CRLF
      rows.push(row);
      row = [];
    }
  }
  return rows;
}
