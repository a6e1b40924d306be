#!/usr/bin/env node
// Makes sure the system tools the tests drive are present: Debian Chromium (browser journeys),
// ffmpeg (videos for the fake camera), espeak-ng (speech for the fake microphone), the fonts of the
// generated test documents and two recorded Spanish voices (Asterisk's digit prompts).
// Installs them with apt-get when missing and running as root; otherwise says what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = [
  { binary: '/usr/bin/chromium', pkg: 'chromium' },
  { binary: '/usr/bin/ffmpeg', pkg: 'ffmpeg' },
  { binary: '/usr/bin/espeak-ng', pkg: 'espeak-ng' },
  // Fonts the generated test documents are rendered with (the MRZ is set in OCR-B).
  { binary: '/usr/share/fonts/opentype/ocr-b/OCRB.otf', pkg: 'fonts-ocr-b' },
  { binary: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', pkg: 'fonts-dejavu-core' },
  // Real people's recorded Spanish digits (telephone prompts): genuine readings for the liveness tests and bench
  // (packages/fixtures recorded-voice.ts).
  { binary: '/usr/share/asterisk/sounds/es_MX_f_Allison/digits/0.wav', pkg: 'asterisk-core-sounds-es-wav' },
  { binary: '/usr/share/asterisk/sounds/es/digits/0.gsm', pkg: 'asterisk-prompt-es-co' },
];

export function missingTools() {
  return tools.filter((tool) => !existsSync(tool.binary));
}

export function ensureTools({ quiet = false } = {}) {
  const missing = missingTools();
  if (missing.length === 0) return true;
  const packages = missing.map((tool) => tool.pkg);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Missing system packages for the browser tests: ${packages.join(', ')}.\n` + `Install them with: sudo apt-get install -y ${packages.join(' ')}`);
    return false;
  }
  if (!quiet) console.log(`Installing ${packages.join(', ')} with apt-get...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0) {
    console.error(`apt-get could not install ${packages.join(', ')}`);
    return false;
  }
  return missingTools().length === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(ensureTools() ? 0 : 1);
}
