/** What ffmpeg says of an input's container: read from the stderr of `ffmpeg -i <file>` (pure). */

export interface ContainerInfo {
  /** ffmpeg's demuxer names, e.g. 'matroska,webm' or 'mov,mp4,m4a,3gp,3g2,mj2'. */
  format: string;
  /** The file-level encoder tag (Matroska WritingApp, MP4 ©too), '' when none. */
  encoder: string;
  majorBrand: string;
  compatibleBrands: string;
  videoCodec: string;
  audioCodec: string;
}

/** The container description from the stderr of `ffmpeg -i <file>`. */
export function containerInfo(stderr: string): ContainerInfo {
  const format = /Input #0, ([^\n]+?), from /.exec(stderr)?.[1] ?? '';
  // File-level metadata sits between "Input #0" and the first "Duration:"/"Stream" line.
  const head = stderr.slice(stderr.indexOf('Input #0'), Math.max(stderr.indexOf('Duration:'), 0) || undefined);
  const tag = (name: string) => new RegExp(`^\\s+${name}\\s*:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const stream = (kind: 'Video' | 'Audio') => new RegExp(`Stream #0:\\d+[^\\n]*?: ${kind}: ([a-z0-9_]+)`, 'i').exec(stderr)?.[1]?.toLowerCase() ?? '';
  return { format, encoder: tag('encoder'), majorBrand: tag('major_brand'), compatibleBrands: tag('compatible_brands'), videoCodec: stream('Video'), audioCodec: stream('Audio') };
}
