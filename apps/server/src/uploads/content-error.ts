/** A file whose bytes are of an accepted type but unusable: damaged, or too small or too large to process. */
export class ContentRejectedError extends Error {
  override name = 'ContentRejectedError';
  constructor(
    readonly reason: 'corrupt' | 'too_small' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}
