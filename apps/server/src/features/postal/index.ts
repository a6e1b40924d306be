export { postalCatalogueMigration } from './migration.js';
export { postalRoutes, type PostalRoutesOptions } from './routes.js';
export { lookupPostalCode, queryPostalCode, type PostalSettlement } from './lookup.js';
export { clearPostalLookupCache } from './cache.js';
export {
  importPostalCatalogue,
  countPostalSettlements,
  type PostalImportOptions,
  type PostalImportReport,
} from './import.js';
export { PostalImportError, type RowRejection } from './errors.js';
export { runPostalImportCli, postalImportUsage, type PostalImportCliDeps } from './cli.js';
export { importSampleCatalogue, seedSampleCatalogueIfEmpty } from './seed.js';
export { writeSampleCatalogue, samplePostalCodes, sampleCatalogueFacts, maxSampleRows } from './sample.js';
export { timePostalLookups, type LookupTimings } from './bench.js';
export type { PostalTables, PostalSettlementsTable, PostalCatalogueImportsTable, PostalDb } from './tables.js';
export { catalogueStatus, catalogueStatusLog, type CatalogueStatus } from './status.js';
