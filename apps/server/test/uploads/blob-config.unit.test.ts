import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configErrorMessage } from '../support/config-error.js';

const configError = configErrorMessage;

describe('blob storage configuration', () => {
  it('keeps blobs under DATA_DIR/blobs by default', () => {
    expect(loadConfig({ DATA_DIR: '/srv/kyc' }).blobs).toEqual({ kind: 'filesystem', dir: path.resolve('/srv/kyc/blobs') });
  });

  it('switches to S3 with S3_BUCKET, with AWS defaults', () => {
    expect(loadConfig({ S3_BUCKET: 'kyc-evidence' }).blobs).toEqual({
      kind: 's3',
      bucket: 'kyc-evidence',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('reads every S3 variable; a custom endpoint implies path-style unless told otherwise', () => {
    const env = {
      S3_BUCKET: 'kyc-evidence',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'mx-central-1',
      S3_ACCESS_KEY_ID: 'AKID',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(env).blobs).toEqual({
      kind: 's3',
      bucket: 'kyc-evidence',
      region: 'mx-central-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ ...env, S3_FORCE_PATH_STYLE: 'false' }).blobs).toMatchObject({ forcePathStyle: false });
  });

  it('refuses S3 settings without a bucket, half a key pair and malformed values', () => {
    expect(configError({ S3_ENDPOINT: 'http://minio:9000' })).toContain('S3_ENDPOINT set without S3_BUCKET');
    expect(configError({ S3_BUCKET: 'kyc-evidence', S3_ACCESS_KEY_ID: 'AKID' })).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    expect(configError({ S3_BUCKET: 'Not_A_Bucket' })).toContain('S3_BUCKET must be a bucket name');
    expect(configError({ S3_BUCKET: 'kyc-evidence', S3_ENDPOINT: 'minio:9000' })).toContain('S3_ENDPOINT must be an http:// or https:// URL');
    expect(configError({ S3_BUCKET: 'kyc-evidence', S3_FORCE_PATH_STYLE: 'yes' })).toContain('S3_FORCE_PATH_STYLE');
  });
});
