/**
 * Is an uploaded face video the file a browser's MediaRecorder writes (issue 18, item 3)? A video injected by a
 * script or made with a desktop tool usually carries that tool's muxer and codecs: ffmpeg tags its files
 * `encoder: Lavf…`, and desktop encoders use codecs no MediaRecorder produces (MPEG-4 Part 2, ProRes...).
 * Measured on headless Chromium 156 here: WebM is `matroska,webm` with `encoder: Chrome` (Matroska MuxingApp and
 * WritingApp "Chrome"), VP8/VP9/H.264/AV1 video and Opus audio; its MP4 has brand `isom` with `iso6` among the
 * compatible brands, VP9/H.264 + Opus/AAC and no encoder tag. Safari records MP4 (H.264/HEVC + AAC). Evidence,
 * not proof: a file can be remuxed to look like a browser's. Pure (reads ffmpeg's description of the input).
 */

import type { ContainerInfo } from '../../engines/media/container.js';

export { containerInfo, type ContainerInfo } from '../../engines/media/container.js';

export type RecorderOrigin = 'chrome-webm' | 'browser-webm' | 'browser-mp4' | 'unknown' | 'tool';

export interface RecorderCheck {
  /** false when the file names a non-browser tool or uses codecs no MediaRecorder writes; null when it cannot tell. */
  consistent: boolean | null;
  origin: RecorderOrigin;
  detail: string;
  container: ContainerInfo;
}

const browserWriters = /^(chrome|chromium|firefox|mozilla|webkit|safari)\b|libwebm|QTmuxingAppLibWebM|QTwritingAppLibWebM/i;
const toolWriters = /^(lavf|lavc)|ffmpeg|handbrake|\bobs\b|gstreamer|mkvmerge|mkvtoolnix|libebml|premiere|davinci|adobe|gpac|mp4box|x264|x265/i;
const webmVideo = new Set(['vp8', 'vp9', 'h264', 'av1']);
const webmAudio = new Set(['', 'opus', 'pcm_f32le', 'pcm_s16le']);
const mp4Video = new Set(['h264', 'hevc', 'vp9', 'av1']);
const mp4Audio = new Set(['', 'aac', 'opus']);

export function recorderCheck(container: ContainerInfo): RecorderCheck {
  const c = container;
  const codecs = `${c.videoCodec || 'no video'}${c.audioCodec ? ` + ${c.audioCodec}` : ''}`;
  if (c.encoder && toolWriters.test(c.encoder)) return { consistent: false, origin: 'tool', detail: `written by '${c.encoder}', not a browser (${c.format}, ${codecs})`, container };
  if (/matroska|webm/.test(c.format)) {
    if (!webmVideo.has(c.videoCodec) || !webmAudio.has(c.audioCodec))
      return { consistent: false, origin: 'tool', detail: `WebM/Matroska with ${codecs}, which no browser MediaRecorder writes`, container };
    if (/^chrome\b/i.test(c.encoder)) return { consistent: true, origin: 'chrome-webm', detail: `WebM written by Chrome's MediaRecorder (${codecs})`, container };
    if (browserWriters.test(c.encoder)) return { consistent: true, origin: 'browser-webm', detail: `WebM written by '${c.encoder}' (${codecs})`, container };
    return { consistent: null, origin: 'unknown', detail: `WebM with ${c.encoder ? `an unknown writer '${c.encoder}'` : 'no writing application'} (${codecs})`, container };
  }
  if (/mp4|mov/.test(c.format)) {
    if (!mp4Video.has(c.videoCodec) || !mp4Audio.has(c.audioCodec)) return { consistent: false, origin: 'tool', detail: `MP4 with ${codecs}, which no browser MediaRecorder writes`, container };
    if (c.encoder && !browserWriters.test(c.encoder)) return { consistent: null, origin: 'unknown', detail: `MP4 written by an unknown '${c.encoder}' (${codecs})`, container };
    return { consistent: true, origin: 'browser-mp4', detail: `MP4 (brand ${c.majorBrand || 'none'}, ${codecs}) as Chrome or Safari record it`, container };
  }
  return { consistent: false, origin: 'tool', detail: `a ${c.format || 'unknown'} file, not WebM or MP4`, container };
}
