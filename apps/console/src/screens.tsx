import { lazy, type ComponentType } from 'react';
import type { ConsoleRole, ConsoleUser } from '@kyc/contracts';
import { Cases } from './Cases';

/** What every screen of the console receives from the shell. */
export interface ScreenProps {
  user: ConsoleUser;
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

/** The funnel of the signed-in user's own grantor (a platform operator reads it through the API with grantorId). */
function FunnelScreen(Funnel: ComponentType<ScreenProps & { grantorId: string | undefined }>): ComponentType<ScreenProps> {
  return (props: ScreenProps) => <Funnel {...props} grantorId={undefined} />;
}

const everyRole: readonly ConsoleRole[] = ['admin', 'reviewer', 'viewer', 'operator'];

/**
 * The console's sections, in the top bar's order: a new screen is one entry here. Screens other than the case
 * list are loaded when first opened, so the entry bundle stays small.
 */
export const screens: readonly ScreenEntry[] = [
  { id: 'cases', label: 'Expedientes', roles: everyRole, Component: Cases },
  { id: 'funnel', label: 'Embudo', roles: ['admin', 'reviewer', 'viewer'], Component: lazy(() => import('./Funnel').then((m) => ({ default: FunnelScreen(m.Funnel) }))) },
  { id: 'webhooks', label: 'Webhooks', roles: ['admin'], Component: lazy(() => import('./Webhooks').then((m) => ({ default: m.Webhooks }))) },
  { id: 'settings', label: 'Configuración', roles: ['admin'], Component: lazy(() => import('./settings/Settings').then((m) => ({ default: m.Settings }))) },
];
