import type { Db } from '../../store/db.js';
import type {} from './tables.js';

export interface RetentionPolicy {
  biometricDays: number;
  fileYears: number;
}

/**
 * 90 days of biometric media: enough to review a case and answer a dispute about the onboarding, after which the
 * face and ID images are the most sensitive data held and serve no purpose; 10 years for the rest of the file: the
 * identification-file retention the Mexican anti-money-laundering rules set for lenders (README "Retention").
 */
export const defaultRetentionPolicy: RetentionPolicy = { biometricDays: 90, fileYears: 10 };

export const policyLimits = { biometricDays: { min: 1, max: 3650 }, fileYears: { min: 1, max: 30 } } as const;

/** Biometric media: the evidence kinds whose blob is a face, an ID image or a video of either. */
export const biometricEvidenceKinds = ['ocr_frente', 'ocr_reverso', 'ocr_reverso_rechazado', 'rostro_identificacion', 'video_token', 'grabacion_tiempo_real', 'holograma'] as const;

/** Why a policy is refused, or null. */
export function policyProblem(policy: RetentionPolicy): string | null {
  const { biometricDays: d, fileYears: y } = policyLimits;
  if (!Number.isInteger(policy.biometricDays) || policy.biometricDays < d.min || policy.biometricDays > d.max) {
    return `biometric days must be a whole number from ${d.min} to ${d.max}`;
  }
  if (!Number.isInteger(policy.fileYears) || policy.fileYears < y.min || policy.fileYears > y.max) {
    return `file years must be a whole number from ${y.min} to ${y.max}`;
  }
  if (policy.biometricDays > policy.fileYears * 365) return 'biometric media cannot be kept longer than the file they belong to';
  return null;
}

export async function readPolicy(db: Db, grantorId: string): Promise<RetentionPolicy & { stored: boolean }> {
  const row = await db.selectFrom('retention_policies').selectAll().where('grantor_id', '=', grantorId).executeTakeFirst();
  return row ? { biometricDays: Number(row.biometric_days), fileYears: Number(row.file_years), stored: true } : { ...defaultRetentionPolicy, stored: false };
}

export async function writePolicy(db: Db, grantorId: string, policy: RetentionPolicy, updatedBy: string, now: Date = new Date()): Promise<void> {
  const problem = policyProblem(policy);
  if (problem) throw new RangeError(problem);
  const values = { biometric_days: policy.biometricDays, file_years: policy.fileYears, updated_by: updatedBy, updated_at: now.toISOString() };
  await db
    .insertInto('retention_policies')
    .values({ grantor_id: grantorId, ...values })
    .onConflict((oc) => oc.column('grantor_id').doUpdateSet(values))
    .execute();
}

/** The instants before which media, and whole files, are expired under `policy` at `now`. */
export function cutoffs(policy: RetentionPolicy, now: Date): { media: string; file: string } {
  const media = new Date(now.getTime() - policy.biometricDays * 86_400_000);
  const file = new Date(now);
  file.setUTCFullYear(file.getUTCFullYear() - policy.fileYears);
  return { media: media.toISOString(), file: file.toISOString() };
}
