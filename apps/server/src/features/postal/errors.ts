/** A rejected catalogue line: its 1-based line number in the file and why it was rejected. */
export interface RowRejection {
  line: number;
  reason: string;
}

/** Counts known when an import stops, so the operator sees how far the file got. */
export interface PostalImportErrorDetails {
  rowsRead?: number;
  rowsRejected?: number;
  rejections?: RowRejection[];
}

/** The catalogue file cannot be imported; the catalogue in the database is left as it was. */
export class PostalImportError extends Error {
  override name = 'PostalImportError';
  readonly rowsRead: number;
  readonly rowsRejected: number;
  readonly rejections: RowRejection[];

  constructor(message: string, details: PostalImportErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.rowsRead = details.rowsRead ?? 0;
    this.rowsRejected = details.rowsRejected ?? 0;
    this.rejections = details.rejections ?? [];
  }
}
