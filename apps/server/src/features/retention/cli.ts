import type { BlobStore } from '../../blob/blob-store.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import type { Db } from '../../store/db.js';
import { policyLimits, policyProblem, readPolicy, writePolicy } from './policy.js';
import { executeRequest, listRequests, placeHold, releaseHold, RequestError, type Subject } from './requests.js';
import { runRetentionSweep } from './sweep.js';

export class RetentionCliError extends Error {
  override name = 'RetentionCliError';
}

export const retentionUsage = `  retention-policy <grantorId> [--biometric-days N] [--file-years M]
                                       show or set how long biometric media (days, ${policyLimits.biometricDays.min}-${policyLimits.biometricDays.max})
                                       and the rest of a file (years, ${policyLimits.fileYears.min}-${policyLimits.fileYears.max}) are kept
  retention-request <grantorId> --action block|delete (--folio <uuid_trx> | --curp <CURP>)
                    --by "who asked" --basis "request reference or legal basis"
                                       block or delete one person's data now; logged
  retention-requests <grantorId>       list the data-subject requests filed
  hold-place <uuid_trx> --reason "text" [--by "who"]
                                       legal hold: never deleted by the sweep nor a request
  hold-release <uuid_trx>              lift a legal hold
  retention-sweep                      run one retention sweep now (the worker runs one every hour)`;

function wholeNumber(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,6}$/.test(text)) throw new RetentionCliError(`--${name} must be a whole number`);
  return Number(text);
}

export async function retentionPolicyCommand(db: Db, grantorId: string, options: { biometricDays?: string | undefined; fileYears?: string | undefined }, out: (line: string) => void): Promise<void> {
  const current = await readPolicy(db, grantorId);
  const biometricDays = wholeNumber('biometric-days', options.biometricDays);
  const fileYears = wholeNumber('file-years', options.fileYears);
  if (biometricDays !== undefined || fileYears !== undefined) {
    const next = { biometricDays: biometricDays ?? current.biometricDays, fileYears: fileYears ?? current.fileYears };
    const problem = policyProblem(next);
    if (problem) throw new RetentionCliError(problem);
    await writePolicy(db, grantorId, next, 'cli');
    out(`Retention of ${grantorId} updated:`);
    Object.assign(current, next, { stored: true });
  }
  out(`  biometric media: ${current.biometricDays} days after capture${current.stored ? '' : ' (default)'}`);
  out(`  rest of the file: ${current.fileYears} years after the last activity${current.stored ? '' : ' (default)'}`);
}

export async function retentionRequestCommand(
  ctx: { db: Db; cipher: DataCipher; blobs: BlobStore },
  grantorId: string,
  options: { action?: string | undefined; folio?: string | undefined; curp?: string | undefined; by?: string | undefined; basis?: string | undefined },
  out: (line: string) => void,
): Promise<void> {
  if (options.action !== 'block' && options.action !== 'delete') throw new RetentionCliError('--action must be block or delete');
  if ((options.folio === undefined) === (options.curp === undefined)) throw new RetentionCliError('name the person by exactly one of --folio or --curp');
  const subject: Subject = options.folio !== undefined ? { kind: 'folio', folio: options.folio } : { kind: 'curp', curp: options.curp! };
  try {
    const outcome = await executeRequest(ctx, { grantorId, action: options.action, subject, requestedBy: options.by ?? '', basis: options.basis ?? '' });
    out(`request ${outcome.id}: ${options.action} ${outcome.status}`);
    for (const uuidTrx of outcome.done) out(`  ${options.action === 'block' ? 'blocked' : 'deleted'}  ${uuidTrx}`);
    for (const r of outcome.refused) out(`  refused  ${r.uuidTrx}  ${r.reason}`);
    if (outcome.status === 'not_found') out('  no transaction of this grantor matches');
  } catch (error) {
    if (error instanceof RequestError) throw new RetentionCliError(error.message);
    throw error;
  }
}

export async function retentionRequestsCommand(db: Db, grantorId: string, out: (line: string) => void): Promise<void> {
  const requests = await listRequests(db, grantorId);
  if (requests.length === 0) out('No data-subject requests filed for this grantor.');
  for (const r of requests) {
    out(`${r.created_at}  ${r.id}  ${r.action} by ${r.subject_kind}  ${r.status}  asked by ${r.requested_by}: ${r.basis}`);
    for (const x of r.detail.refused) out(`    refused ${x.uuidTrx}: ${x.reason}`);
  }
}

export async function holdCommand(db: Db, place: boolean, uuidTrx: string | undefined, options: { reason?: string | undefined; by?: string | undefined }, out: (line: string) => void): Promise<void> {
  if (!uuidTrx) throw new RetentionCliError('a transaction id (uuid_trx) is required');
  try {
    if (place) {
      await placeHold(db, { uuidTrx, reason: options.reason ?? '', placedBy: options.by ?? 'cli' });
      out(`${uuidTrx} is under a legal hold: nothing of it is deleted until the hold is released`);
    } else {
      out((await releaseHold(db, uuidTrx)) ? `hold on ${uuidTrx} released` : `${uuidTrx} had no hold`);
    }
  } catch (error) {
    if (error instanceof RequestError) throw new RetentionCliError(error.message);
    throw error;
  }
}

export async function sweepCommand(ctx: { db: Db; blobs: BlobStore }, out: (line: string) => void): Promise<void> {
  const result = await runRetentionSweep(ctx);
  out(`retention sweep: ${result.media} biometric media and ${result.transactions} transactions deleted${result.more ? ' (more are due: run it again)' : ''}`);
}
