/**
 * Labelled real face photos for measuring the face comparison (docs/decisions.md): the development set outside
 * the repository (`../shared/data/real-dev/faces/identities.csv`: one identity per single photo, identities left
 * to right in a group photo) and the unlabelled group photos shipped in npm packages (different people within a
 * photo; usable as impostors only). Nothing here is used by the service at run time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { LabelledFace } from './measure.js';
import type { FaceObservation, RgbImage } from './types.js';

export interface LabelledPhoto {
  file: string;
  /** Identities left to right (one for a single photo); empty for an unlabelled photo. */
  identities: string[];
  kind: 'single' | 'group' | 'video';
  notes: string;
}

/** One CSV line split on commas outside double quotes. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        current += '"';
        i += 1;
      } else quoted = !quoted;
    } else if (c === ',' && !quoted) {
      fields.push(current);
      current = '';
    } else current += c;
  }
  fields.push(current);
  return fields;
}

/**
 * The photos listed in identities.csv (file,identity,source_repo,kind,notes). A group's identity column lists the
 * people joined by '+'; the notes say "left to right: a, b", which orders them.
 */
export function readIdentities(dir: string): LabelledPhoto[] {
  const lines = readFileSync(path.join(dir, 'identities.csv'), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const header = csvFields(lines[0]!);
  const col = (name: string) => {
    const at = header.indexOf(name);
    if (at < 0) throw new Error(`identities.csv has no ${name} column`);
    return at;
  };
  const [fileAt, identityAt, kindAt, notesAt] = [col('file'), col('identity'), col('kind'), col('notes')];
  return lines.slice(1).map((line) => {
    const f = csvFields(line);
    const notes = f[notesAt] ?? '';
    let identities = (f[identityAt] ?? '')
      .split('+')
      .map((s) => s.trim())
      .filter(Boolean);
    const order = /left to right:\s*([^;]+)/i.exec(notes)?.[1];
    if (order)
      identities = order
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    return { file: f[fileAt]!, identities, kind: (f[kindAt] ?? 'single') as LabelledPhoto['kind'], notes };
  });
}

/** The real development face folder seen from the repository root, or null when it is absent. */
export function realFacesDir(repositoryRoot: string): string | null {
  const dir = path.resolve(repositoryRoot, '..', 'shared', 'data', 'real-dev', 'faces');
  return existsSync(path.join(dir, 'identities.csv')) ? dir : null;
}

/** Group photos shipped in npm packages (face-api's demo samples, human's screenshots): unlabelled. */
export function npmGroupPhotos(): string[] {
  const require = createRequire(import.meta.url);
  const dirOf = (pkg: string) => {
    for (const dir of require.resolve.paths(pkg) ?? []) if (existsSync(path.join(dir, pkg, 'package.json'))) return path.join(dir, pkg);
    return null;
  };
  const files: string[] = [];
  const faceApi = dirOf('@vladmandic/face-api');
  if (faceApi) for (let i = 1; i <= 6; i += 1) files.push(path.join(faceApi, 'demo', `sample${i}.jpg`));
  const human = dirOf('@vladmandic/human');
  if (human) for (const name of ['screenshot-faceid.jpg', 'screenshot-facedetect.jpg', 'screenshot-facematch.jpg']) files.push(path.join(human, 'assets', name));
  return files.filter((f) => existsSync(f));
}

export async function readRgb(file: string): Promise<RgbImage> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

type Describe = (image: RgbImage) => Promise<FaceObservation[]>;
const area = (f: FaceObservation) => f.box[2] * f.box[3];

export interface FaceSet {
  faces: LabelledFace[];
  /** Pairs known to be different people although unlabelled (two faces of one group photo). */
  impostorOnly: Array<[LabelledFace, LabelledFace]>;
  /** Photos where fewer faces than labels were described. */
  missed: string[];
}

/**
 * The labelled faces of the photos: a single photo gives its largest face; a group photo of n people its n largest
 * faces, labelled left to right, and the others unlabelled.
 */
export async function labelledFaces(dir: string, photos: readonly LabelledPhoto[], describe: Describe): Promise<FaceSet> {
  const set: FaceSet = { faces: [], impostorOnly: [], missed: [] };
  for (const photo of photos) {
    if (photo.kind === 'video') continue;
    const found = (await describe(await readRgb(path.join(dir, photo.file)))).filter((f) => f.embedding);
    const bySize = [...found].sort((a, b) => area(b) - area(a));
    const labelled = bySize.slice(0, photo.identities.length).sort((a, b) => a.box[0] - b.box[0]);
    if (labelled.length < photo.identities.length) set.missed.push(photo.file);
    labelled.forEach((face, i) => {
      const identity = photo.kind === 'single' ? photo.identities[0]! : photo.identities[i]!;
      set.faces.push({ id: `${photo.file}#${i}`, identity, descriptor: face.embedding! });
    });
    if (photo.kind === 'group') {
      bySize.slice(photo.identities.length).forEach((face, i) => set.faces.push({ id: `${photo.file}#u${i}`, descriptor: face.embedding! }));
    }
  }
  return set;
}

/** Every face of the unlabelled photos; faces of one photo are different people (impostor pairs). */
export async function unlabelledFaces(files: readonly string[], describe: Describe, minFaceSide = 48): Promise<FaceSet> {
  const set: FaceSet = { faces: [], impostorOnly: [], missed: [] };
  for (const file of files) {
    const found = (await describe(await readRgb(file))).filter((f) => f.embedding && Math.min(f.box[2], f.box[3]) >= minFaceSide);
    const faces = found.map((f, i) => ({ id: `${path.basename(file)}#${i}`, descriptor: f.embedding! }));
    for (let i = 0; i < faces.length; i += 1) for (let j = i + 1; j < faces.length; j += 1) set.impostorOnly.push([faces[i]!, faces[j]!]);
    set.faces.push(...faces);
  }
  return set;
}
