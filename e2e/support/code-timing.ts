import type { BrowserContext } from 'playwright-core';

/**
 * The e2e server issues every code with this schedule: the TEST-ONLY setting VIDEO_TOKEN_TEST_SCHEDULE_MS, which
 * the server accepts only under NODE_ENV=test (apps/server/src/domain/video-token/schedule.ts). Chromium's fake
 * camera plays a file made before the browser starts, so it cannot follow a schedule drawn at random; production
 * codes never carry a fixed one.
 */
export const testSchedule = { digitsMs: [1800, 3000, 3900, 5400], stopMs: 7600 } as const;
export const testScheduleEnv = { VIDEO_TOKEN_TEST_SCHEDULE_MS: '1800,1200,900,1500' } as const;

/**
 * The code's reply is held until this long after the camera opened (alignCodeWithCamera), so the recording starts
 * a known time into the fake camera's file: the reply, then the flow's 5 s stability wait.
 */
export const codeReplyAtMs = 10_000;
export const recordingStartMs = codeReplyAtMs + 5_000;
/** The generated face files last this long; Chromium loops them, a later camera cycle is aligned the same way. */
export const faceLoopMs = 24_000;

/**
 * Test instrumentation (not product code): notes when the page's camera opened (the fake files start there) and
 * holds each issued code's reply until codeReplyAtMs after it (or as many faceLoopMs later as needed), so that the
 * flow's recording starts recordingStartMs into the fake files, in both the recorder and the real-time paths. Only
 * successful replies are held: a refused photo answers at once.
 */
export async function alignCodeWithCamera(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const devices = navigator.mediaDevices;
    if (!devices?.getUserMedia) return;
    const open = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
      const stream = await open(constraints);
      if (constraints?.audio) (window as unknown as { kycCameraOpenedAt?: number }).kycCameraOpenedAt = performance.now();
      return stream;
    };
  });
  // The journey's code, the result link's, and a redo link's (/v1/redo/face/code).
  await context.route(/\/v1\/((public_)?otp|redo\/face\/code)$/, async (route) => {
    const response = await route.fetch();
    if (response.status() === 200) {
      const page = route.request().frame().page();
      const waitMs = await page.evaluate(
        ({ replyAt, loop }) => {
          const opened = (window as unknown as { kycCameraOpenedAt?: number }).kycCameraOpenedAt;
          if (opened === undefined) return 0;
          let target = opened + replyAt;
          while (target < performance.now()) target += loop;
          return target - performance.now();
        },
        { replyAt: codeReplyAtMs, loop: faceLoopMs },
      );
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    await route.fulfill({ response });
  });
}
