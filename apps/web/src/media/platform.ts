/** What the flow needs to know about the device, from hints that tests can pass in. */
export interface PlatformHints {
  userAgent: string;
  /** navigator.platform (iPadOS reports 'MacIntel' with touch points). */
  platform?: string;
  maxTouchPoints?: number;
  /** matchMedia('(pointer: coarse)'): the primary pointer is a finger. */
  coarsePointer?: boolean;
}

export function isIOS(hints: PlatformHints): boolean {
  return /iPad|iPhone|iPod/.test(hints.userAgent) || (hints.platform === 'MacIntel' && (hints.maxTouchPoints ?? 0) > 1);
}

export function isAndroid(hints: PlatformHints): boolean {
  return /Android/i.test(hints.userAgent);
}

/** Phones and tablets: a mobile user agent, iOS/iPadOS, or a touch-first device. */
export function isMobileDevice(hints: PlatformHints): boolean {
  return isIOS(hints) || isAndroid(hints) || /Mobi|Tablet/i.test(hints.userAgent) || hints.coarsePointer === true;
}

/** The originOS field of the multipart calls (docs/flow.md §7: ios/android), 'desktop' for the rest. */
export type OriginOS = 'ios' | 'android' | 'desktop';

export function originOS(hints: PlatformHints): OriginOS {
  if (isIOS(hints)) return 'ios';
  if (isAndroid(hints)) return 'android';
  return 'desktop';
}

/** The running browser's hints. */
export function currentPlatform(): PlatformHints {
  if (typeof navigator === 'undefined') return { userAgent: '' };
  const coarse = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
  return { userAgent: navigator.userAgent, platform: navigator.platform, maxTouchPoints: navigator.maxTouchPoints, coarsePointer: coarse };
}
