import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { grantorParamIds, uuid } from '@kyc/contracts';
import { generateApiKey } from '../crypto/apikeys.js';
import type { DataCipher } from '../crypto/data-cipher.js';
import { ConsoleCliError, createConsoleUser } from '../features/console/cli.js';
import { effectiveParams, isKnownParamId, managedParamIds, paramIdPattern, paramValueProblem } from '../domain/grantor-params.js';
import type { Db } from '../store/db.js';
import * as grantors from '../store/grantors.js';
import type { GrantorStore } from '../store/grantors.js';
import { generateSecretKey } from '../secret-keys/keys.js';
import * as secretKeys from '../secret-keys/store.js';
import type { BlobStore } from '../blob/blob-store.js';
import { holdCommand, RetentionCliError, retentionPolicyCommand, retentionRequestCommand, retentionRequestsCommand, retentionUsage, sweepCommand } from '../features/retention/cli.js';
import { WebhookCliError, webhookAdd, webhookList, webhookRemove } from '../features/webhooks/cli.js';

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}

export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
  }
}

export const usage = `Usage: kyc-grantor <command> [arguments]

  create --name "Name" [--id <uuid>]   create a grantor; prints its id and its api key (shown once)
  set <grantorId> IDCAMPO=valor [...]  store parameters (docs/flow.md §3), e.g. COLOR_PRIMARIO=#0B4F8A
  rotate-key <grantorId>               issue a new api key; the previous one stops working at once
  list                                 list grantors (id, state, key prefix, name)
  show <grantorId>                     show a grantor and its effective parameters (never its key)
  deactivate <grantorId>               refuse the grantor's api key from now on
  activate <grantorId>                 accept the grantor's api key again
  secret-create <grantorId> [--label "text"]
                                       create a secret server key (Authorization: Bearer …); shown once
  secret-list [grantorId]              list secret server keys (id, grantor, state, hint, label, last use)
  secret-revoke <secretKeyId>          refuse a secret server key from now on
  webhook-add <grantorId> --url <https://…>
                                       add a webhook endpoint (verification.completed / .abandoned);
                                       prints its signing secret, shown once
  webhook-list [grantorId]             list webhook endpoints and their latest deliveries
  webhook-remove <endpointId>          stop delivering to an endpoint
  console-user-create --grantor <id> --email <address> [--role admin|reviewer|viewer] [--totp]
  console-user-create --email <address> --role operator
                                       create a review console user (/console); prints a generated
                                       password and, for admin and operator (or --totp), the TOTP
                                       enrolment URI, each shown once
${retentionUsage}

The api key is publishable (it is in the flow's URL); server-to-server calls need a secret server key.
Several secret keys may be active at once: create the new one, deploy it, then revoke the old one.

Uses the same environment as the server (DATA_DIR, DATABASE_URL, ...).`;

const settableIds = grantorParamIds.filter((id) => !managedParamIds.has(id));

async function requireGrantor(db: Db, id: string | undefined): Promise<grantors.Grantor> {
  if (!id) throw new CliError(`a grantor id is required\n\n${usage}`, 2);
  const grantor = await grantors.findGrantorById(db, id.toLowerCase());
  if (!grantor) throw new CliError(`no grantor with id ${id}`);
  return grantor;
}

async function create(store: GrantorStore, name: string | undefined, id: string | undefined, io: CliIO, baseUrl?: string) {
  const { db } = store;
  const trimmed = name?.trim() ?? '';
  if (trimmed.length === 0 || trimmed.length > 200) throw new CliError('--name is required (1 to 200 characters)', 2);
  if (id !== undefined && !uuid.safeParse(id).success) throw new CliError(`--id must be a uuid, got ${id}`, 2);
  const grantorId = (id ?? randomUUID()).toLowerCase();
  if (await grantors.findGrantorById(db, grantorId)) throw new CliError(`a grantor with id ${grantorId} already exists`);
  const apiKey = generateApiKey();
  await grantors.insertGrantor(store, { id: grantorId, name: trimmed, apiKey });
  io.out(`Grantor created: ${trimmed}`);
  io.out(`  id:      ${grantorId}`);
  io.out(`  api key: ${apiKey}`);
  if (baseUrl) io.out(`  flow:    ${baseUrl}/${apiKey}`);
  io.out('The api key is shown only now and stored hashed: keep it in your secrets manager.');
}

function parseAssignment(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new CliError(`expected IDCAMPO=valor, got "${text}"`, 2);
  return [text.slice(0, at), text.slice(at + 1)];
}

async function set(store: GrantorStore, id: string | undefined, assignments: string[], io: CliIO) {
  const { db } = store;
  const grantor = await requireGrantor(db, id);
  if (assignments.length === 0) throw new CliError('nothing to set: pass IDCAMPO=valor pairs', 2);
  const values: Record<string, string> = {};
  for (const [idCampo, valor] of assignments.map(parseAssignment)) {
    if (!paramIdPattern.test(idCampo)) {
      throw new CliError(`unknown parameter "${idCampo}". Valid parameters:\n  ${settableIds.join('\n  ')}`);
    }
    const problem = paramValueProblem(idCampo, valor);
    if (problem) throw new CliError(problem);
    if (!isKnownParamId(idCampo)) io.err(`warning: ${idCampo} is not one of the known parameters; stored anyway`);
    values[idCampo] = valor;
  }
  await grantors.writeParams(store, grantor.id, values);
  io.out(`Updated ${Object.keys(values).length} parameter(s) of ${grantor.id}: ${Object.keys(values).join(', ')}`);
}

async function rotateKey(store: GrantorStore, id: string | undefined, io: CliIO, baseUrl?: string) {
  const { db } = store;
  const grantor = await requireGrantor(db, id);
  const apiKey = generateApiKey();
  await grantors.replaceApiKey(store, grantor.id, apiKey);
  io.out(`New api key for ${grantor.id}: ${apiKey}`);
  if (baseUrl) io.out(`  flow: ${baseUrl}/${apiKey}`);
  io.out('The previous key no longer works. The new key is shown only now.');
}

async function list(db: Db, io: CliIO) {
  const all = await grantors.listGrantors(db);
  if (all.length === 0) {
    io.out('No grantors yet: create one with kyc-grantor create --name "Name"');
    return;
  }
  io.out(['ID'.padEnd(36), 'STATE'.padEnd(8), 'KEY'.padEnd(7), 'CREATED'.padEnd(24), 'NAME'].join('  '));
  for (const g of all) {
    const state = g.active ? 'active' : 'inactive';
    io.out([g.id.padEnd(36), state.padEnd(8), `${g.apikeyPrefix}…`.padEnd(7), g.createdAt.padEnd(24), g.name].join('  '));
  }
}

async function show(store: GrantorStore, id: string | undefined, io: CliIO) {
  const { db } = store;
  const grantor = await requireGrantor(db, id);
  const stored = await grantors.readStoredParams(store, grantor.id);
  io.out(`${grantor.name} (${grantor.active ? 'active' : 'inactive'})`);
  io.out(`  id:         ${grantor.id}`);
  io.out(`  key prefix: ${grantor.apikeyPrefix}…`);
  io.out(`  created:    ${grantor.createdAt}   updated: ${grantor.updatedAt}`);
  io.out('Parameters (* = stored, others are defaults):');
  for (const { idCampo, valor } of effectiveParams(grantor, stored)) {
    const shown = valor.length > 80 ? `${valor.slice(0, 77)}… (${valor.length} characters)` : valor;
    io.out(`  ${idCampo in stored ? '*' : ' '} ${idCampo.padEnd(28)} ${shown}`);
  }
}

async function setActive(store: GrantorStore, id: string | undefined, active: boolean, io: CliIO) {
  const { db } = store;
  const grantor = await requireGrantor(db, id);
  await grantors.setGrantorActive(store, grantor.id, active);
  io.out(`${grantor.id} is now ${active ? 'active' : 'inactive: its api key is refused'}`);
}

async function secretCreate(db: Db, id: string | undefined, label: string | undefined, io: CliIO) {
  const grantor = await requireGrantor(db, id);
  const text = (label ?? '').trim();
  if (text.length > 100) throw new CliError('--label must be at most 100 characters', 2);
  const key = generateSecretKey();
  const keyId = await secretKeys.insertSecretKey(db, { grantorId: grantor.id, key, label: text });
  io.out(`Secret server key created for ${grantor.id}${text ? ` (${text})` : ''}`);
  io.out(`  id:  ${keyId}`);
  io.out(`  key: ${key}`);
  io.out('The key is shown only now and stored hashed: keep it in your secrets manager. Send it as');
  io.out('  Authorization: Bearer <key>');
  if (!grantor.active) io.err(`warning: ${grantor.id} is inactive: its keys are refused until it is activated`);
}

async function secretList(db: Db, id: string | undefined, io: CliIO) {
  const grantorId = id ? (await requireGrantor(db, id)).id : undefined;
  const keys = await secretKeys.listSecretKeys(db, grantorId);
  if (keys.length === 0) {
    io.out('No secret server keys yet: create one with kyc-grantor secret-create <grantorId> --label "text"');
    return;
  }
  io.out(['ID'.padEnd(36), 'GRANTOR'.padEnd(36), 'STATE'.padEnd(7), 'KEY'.padEnd(13), 'CREATED'.padEnd(24), 'LAST USED'.padEnd(24), 'LABEL'].join('  '));
  for (const k of keys) {
    const state = k.revokedAt ? 'revoked' : 'active';
    io.out([k.id.padEnd(36), k.grantorId.padEnd(36), state.padEnd(7), `${k.hint}…`.padEnd(13), k.createdAt.padEnd(24), (k.lastUsedAt ?? '-').padEnd(24), k.label].join('  '));
  }
}

async function secretRevoke(db: Db, id: string | undefined, io: CliIO) {
  if (!id) throw new CliError(`a secret key id is required (see secret-list)\n\n${usage}`, 2);
  const key = await secretKeys.findSecretKeyById(db, id.toLowerCase());
  if (!key) throw new CliError(`no secret key with id ${id}`);
  if (!(await secretKeys.revokeSecretKey(db, key.id))) {
    io.out(`${key.id} was already revoked (${key.revokedAt})`);
    return;
  }
  io.out(`${key.id} (${key.hint}…, grantor ${key.grantorId}) is revoked: it is refused from now on`);
}

/** The options every command may take (each command reads its own). */
const cliOptions = {
  name: { type: 'string' },
  id: { type: 'string' },
  label: { type: 'string' },
  grantor: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  totp: { type: 'boolean' },
  url: { type: 'string' },
  'biometric-days': { type: 'string' },
  'file-years': { type: 'string' },
  action: { type: 'string' },
  folio: { type: 'string' },
  curp: { type: 'string' },
  by: { type: 'string' },
  basis: { type: 'string' },
  reason: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A command's refusal written to io.err, with its exit code; any other error is thrown. */
function failureExitCode(error: unknown, io: CliIO): number {
  if (error instanceof ConsoleCliError || error instanceof WebhookCliError || error instanceof RetentionCliError) {
    io.err(error.message);
    return 2;
  }
  if (error instanceof CliError) {
    io.err(error.message);
    return error.exitCode;
  }
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    io.err(`${error.message}\n\n${usage}`);
    return 2;
  }
  throw error;
}

/** Runs one command; returns the process exit code. Errors are written to io.err. */
export async function runGrantorCommand(
  store: GrantorStore,
  argv: string[],
  io: CliIO,
  baseUrl?: string,
  openCipher?: () => DataCipher,
  openBlobs?: (cipher: DataCipher) => BlobStore,
): Promise<number> {
  const { db } = store;
  // The blob store is opened only by the commands that delete, and closed when the command ends.
  let blobs: BlobStore | undefined;
  const withData = (command: string) => {
    if (!openCipher || !openBlobs) throw new CliError(`${command} needs the data key and the blob store (run it through kyc-grantor)`);
    const cipher = openCipher();
    blobs ??= openBlobs(cipher);
    return { db, cipher, blobs };
  };
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: cliOptions,
    });
    const [command, target, ...rest] = positionals;
    if (values.help) {
      io.out(usage);
      return 0;
    }
    switch (command) {
      case 'create':
        await create(store, values.name, values.id, io, baseUrl);
        break;
      case 'set':
        await set(store, target, rest, io);
        break;
      case 'rotate-key':
        await rotateKey(store, target, io, baseUrl);
        break;
      case 'list':
        await list(db, io);
        break;
      case 'show':
        await show(store, target, io);
        break;
      case 'deactivate':
        await setActive(store, target, false, io);
        break;
      case 'activate':
        await setActive(store, target, true, io);
        break;
      case 'secret-create':
        await secretCreate(db, target, values.label, io);
        break;
      case 'secret-list':
        await secretList(db, target, io);
        break;
      case 'secret-revoke':
        await secretRevoke(db, target, io);
        break;
      case 'webhook-add':
        if (!openCipher) throw new CliError('webhook-add needs the data key (run it through kyc-grantor)');
        await webhookAdd(db, openCipher(), (await requireGrantor(db, target)).id, values.url, io.out);
        break;
      case 'webhook-list':
        await webhookList(db, target ? (await requireGrantor(db, target)).id : undefined, io.out);
        break;
      case 'webhook-remove':
        await webhookRemove(db, target, io.out);
        break;
      case 'console-user-create':
        if (!openCipher) throw new CliError('console-user-create needs the data key (run it through kyc-grantor)');
        await createConsoleUser(db, openCipher(), { grantorId: values.grantor, email: values.email, role: values.role, totp: values.totp === true }, io.out);
        break;
      case 'retention-policy':
        await retentionPolicyCommand(db, (await requireGrantor(db, target)).id, { biometricDays: values['biometric-days'], fileYears: values['file-years'] }, io.out);
        break;
      case 'retention-request': {
        const grantorId = (await requireGrantor(db, target)).id;
        await retentionRequestCommand(withData('retention-request'), grantorId, values, io.out);
        break;
      }
      case 'retention-requests':
        await retentionRequestsCommand(db, (await requireGrantor(db, target)).id, io.out);
        break;
      case 'hold-place':
        await holdCommand(db, true, target, values, io.out);
        break;
      case 'hold-release':
        await holdCommand(db, false, target, values, io.out);
        break;
      case 'retention-sweep':
        await sweepCommand(withData('retention-sweep'), io.out);
        break;
      default:
        throw new CliError(command ? `unknown command "${command}"\n\n${usage}` : usage, 2);
    }
    return 0;
  } catch (error) {
    return failureExitCode(error, io);
  } finally {
    blobs?.close();
  }
}
