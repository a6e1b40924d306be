/**
 * Evidence is what a transaction leaves behind for the grantor's file: uploaded documents and the results read
 * from them. Kinds name what a record is; each module adds its own.
 */
export const evidenceKinds = {
  proofOfAddress: 'comprobante_domicilio',
} as const;

const proofFolderName = 'domicilio';

/** Spec §7 `file`: the folder the client names for a proof of address, "grantor id/user id/domicilio". */
export function proofOfAddressFolder(grantorId: string, uuidUser: string): string {
  return `${grantorId}/${uuidUser}/${proofFolderName}`;
}

/** The client's folder names this grantor and user (ids compared case-insensitively, outer slashes ignored). */
export function isProofOfAddressFolder(folder: string, grantorId: string, uuidUser: string): boolean {
  const given = folder.replace(/^\/+|\/+$/g, '').toLowerCase();
  return given === proofOfAddressFolder(grantorId, uuidUser).toLowerCase();
}

/** UTC time as 20250131T235959123Z: sortable and safe in a storage key. */
export function compactTimestamp(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, '');
}

/**
 * Storage key of a proof of address: `<grantor>/<user>/domicilio/<transaction>-<time>-<suffix>.<ext>`. The
 * random suffix keeps two uploads of the same millisecond (a double submit) from replacing each other.
 */
export function proofOfAddressKey(parts: { grantorId: string; uuidUser: string; uuidTrx: string; at: Date; suffix: string; extension: string }): string {
  const name = `${parts.uuidTrx}-${compactTimestamp(parts.at)}-${parts.suffix}.${parts.extension}`;
  return `${proofOfAddressFolder(parts.grantorId, parts.uuidUser)}/${name}`;
}
