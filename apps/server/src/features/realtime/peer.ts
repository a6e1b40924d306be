import { realtimeChannel } from '@kyc/contracts';
import { RTCPeerConnection, useOPUS, useVP8, type RTCDataChannel, type RTCRtpTransceiver } from 'werift';
import type { RealtimeConfig } from './config.js';

export interface OfferingPeer {
  pc: RTCPeerConnection;
  video: RTCRtpTransceiver;
  audio: RTCRtpTransceiver;
  channel: RTCDataChannel;
}

const gatheringTimeoutMs = 10_000;

/**
 * A peer connection that receives one video (VP8) and one audio (Opus) track and opens the 'ping-pong' data
 * channel, with its offer set and every ICE candidate gathered (no trickle: the offer is complete when returned).
 * Loopback is added as a host address so a browser on the same machine (tests, a kiosk) can connect.
 */
export async function openOfferingPeer(config: RealtimeConfig): Promise<OfferingPeer> {
  const pc = new RTCPeerConnection({
    bundlePolicy: 'max-bundle',
    iceServers: config.stunUrls.map((urls) => ({ urls })),
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    ...(config.portRange ? { icePortRange: config.portRange } : {}),
    codecs: { video: [useVP8()], audio: [useOPUS()] },
  });
  try {
    const video = pc.addTransceiver('video', { direction: 'recvonly' });
    const audio = pc.addTransceiver('audio', { direction: 'recvonly' });
    const channel = pc.createDataChannel(realtimeChannel.label);
    await pc.setLocalDescription(await pc.createOffer());
    await gatheringComplete(pc);
    return { pc, video, audio, channel };
  } catch (error) {
    await pc.close().catch(() => undefined);
    throw error;
  }
}

async function gatheringComplete(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.unSubscribe();
      reject(new Error(`ICE gathering did not complete in ${gatheringTimeoutMs} ms`));
    }, gatheringTimeoutMs);
    const subscription = pc.iceGatheringStateChange.subscribe((state) => {
      if (state !== 'complete') return;
      clearTimeout(timer);
      subscription.unSubscribe();
      resolve();
    });
    // The state may have changed between the check above and the subscription.
    if (pc.iceGatheringState === 'complete') {
      clearTimeout(timer);
      subscription.unSubscribe();
      resolve();
    }
  });
}
