import { z } from 'zod';
import { envelope, type MultipartField } from './common.js';
import { routes } from './routes.js';

/**
 * Server-to-server face comparison (`POST /v1/faces/compare`), authorised by the grantor's secret server key
 * (`Authorization: Bearer …`), not by the publishable api key of the flow's URL.
 */
const referenceTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
const probeTypes = [...referenceTypes, 'video/webm', 'video/mp4'] as const;

export const facesCompareMultipart = {
  reference: { kind: 'file', required: true, accept: referenceTypes },
  probe: { kind: 'file', required: true, accept: probeTypes },
} as const satisfies Record<string, MultipartField>;

/** The multipart body as a schema, for the OpenAPI document only (files are sniffed and checked on the server). */
export function facesCompareBody(maxBytes: number) {
  return z.object({
    reference: z
      .file()
      .max(maxBytes)
      .describe(`The reference face: an ID photo (the holder's photo kept from onboarding, or the ID itself) or a selfie. JPEG, PNG or WebP, at most ${maxBytes} bytes.`),
    probe: z.file().max(maxBytes).describe(`The face to check: another photo (JPEG, PNG, WebP) or a short video (WebM or MP4, up to 30 s), at most ${maxBytes} bytes.`),
  });
}

/** [x, y, width, height] in the pixels of the image (or video frame) the face was found in. */
const box = z.tuple([z.number(), z.number(), z.number(), z.number()]);

const foundFace = z.object({
  box,
  /** Detector confidence 0..1. */
  score: z.number(),
});

export const facesCompareResult = envelope(
  z.object({
    /** similarity >= threshold. */
    match: z.boolean(),
    /** Similarity of the two faces' descriptors (cosine, -1..1; the same person scores high). */
    similarity: z.number(),
    /** The grantor's UMBRAL_ROSTRO. */
    threshold: z.number(),
    reference: z.object({ kind: z.literal('image'), width: z.number().int(), height: z.number().int(), face: foundFace }),
    probe: z.object({
      kind: z.enum(['image', 'video']),
      width: z.number().int(),
      height: z.number().int(),
      /** In a video, the face of the frame whose similarity is the median of the frames described. */
      face: foundFace.extend({ frameTimeMs: z.number().int().optional() }),
      /** Videos: frames sampled (2 a second), tracked (spread over them), showing one clear face, described. */
      frames: z.object({ sampled: z.number().int(), tracked: z.number().int(), withFace: z.number().int(), described: z.number().int() }).optional(),
    }),
  }),
);
export type FacesCompareResult = z.infer<typeof facesCompareResult>;

export const serverCalls = {
  facesCompare: {
    ...routes.facesCompare,
    summary: "Compares the faces of two files (two photos, or a photo and a short video) with the grantor's threshold.",
    multipart: facesCompareMultipart,
    response: facesCompareResult,
  },
} as const;

/**
 * project: the camera that recorded a face video, sent by the browser as the multipart text field `info_camara`
 * (JSON): `MediaStreamTrack.label` and the track's `getSettings()`. `deviceId` is a hash made in the browser
 * (SHA-256 of the page's device id, 16 hex digits), never the id itself.
 */
export const cameraInfo = z.object({
  label: z.string().max(200),
  width: z.number().int().min(0).max(20_000).optional(),
  height: z.number().int().min(0).max(20_000).optional(),
  frameRate: z.number().min(0).max(1000).optional(),
  facingMode: z.string().max(40).optional(),
  deviceId: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
});

export type CameraInfo = z.infer<typeof cameraInfo>;
