import { lazy, type ComponentType } from 'react';
import type { ConsoleRole, ConsoleUser } from '@kyc/contracts';
import { Cases } from './Cases';

/** What every screen of the console receives from the shell. */
export interface ScreenProps {
  user: ConsoleUser;
  /** The grantor a platform operator chose in the top bar's picker; undefined for a grantor's own staff. */
  grantorId: string | undefined;
  onSignedOut(notice?: string): void;
}

export interface ScreenEntry {
  id: string;
  /** The section's name in the top bar. */
  label: string;
  /** Roles that see the section (the server checks them again on every call). */
  roles: readonly ConsoleRole[];
  Component: ComponentType<ScreenProps>;
}

const everyRole: readonly ConsoleRole[] = ['admin', 'reviewer', 'viewer', 'operator'];
/** A grantor's admin, and a platform operator for the grantor chosen in the picker. */
const adminRoles: readonly ConsoleRole[] = ['admin', 'operator'];

/**
 * The console's sections, in the top bar's order: a new screen is one entry here. Screens other than the case
 * list are loaded when first opened, so the entry bundle stays small.
 */
export const screens: readonly ScreenEntry[] = [
  { id: 'cases', label: 'Expedientes', roles: everyRole, Component: Cases },
  { id: 'funnel', label: 'Embudo', roles: everyRole, Component: lazy(() => import('./Funnel').then((m) => ({ default: m.Funnel }))) },
  { id: 'webhooks', label: 'Webhooks', roles: adminRoles, Component: lazy(() => import('./Webhooks').then((m) => ({ default: m.Webhooks }))) },
  { id: 'settings', label: 'Configuración', roles: adminRoles, Component: lazy(() => import('./settings/Settings').then((m) => ({ default: m.Settings }))) },
];
