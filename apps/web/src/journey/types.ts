import type { GrantorParam } from '@kyc/contracts/params';
import type { OpenerMessage } from '../session/popup';
import type { EventsOf, JourneyStepId } from '../steps/table';

export type { TermsAcceptance } from './events';

/** Journey steps: the rows of the step table (steps/table.ts) that report events. */
export type StepId = JourneyStepId;

/** The events each step may report (from the step table). The type system rejects an event a step does not know. */
export type StepEvents = { [S in StepId]: EventsOf<S> };

export type JourneyEvent<S extends StepId = StepId> = StepEvents[S];

/** Grantor parameters and session facts the transitions depend on. */
export interface JourneyContext {
  params: readonly GrantorParam[] | null;
  /** apikeyOtorgante: the entry route is /{apikey}. */
  apikey: string | null;
  uuidUser: string | null;
  uuidTrx: string | null;
  idOtorgante: string | null;
  /** Result-link expiry (epoch ms), stored by /pdf_token. */
  fechavigencia: string | null;
  /** Opened by a partner page (window.opener). */
  isPopup: boolean;
  mediaRecorderSupported: boolean;
  /** Epoch ms. */
  now: number;
}

/** Side effects a transition asks the runner to perform before waiting delayMs. */
export type Effect =
  | { kind: 'lifecycle'; step: string; status: string; description: string }
  | { kind: 'audit'; paso: string; tipo: string; dato: string }
  | { kind: 'opener'; message: OpenerMessage }
  | { kind: 'userDatum'; description: string; value: string }
  /** Close the popup when the delay ends; the runner navigates to route if the window stays open. */
  | { kind: 'closeWindow' }
  /** completado = 'true': docs/flow.md §4 "Reporting after a retry-limit ends sets completado to true" (no more lifecycle updates). */
  | { kind: 'markCompleted' }
  /** The cancelled transaction is forgotten (journey/facts.ts forgetJourney): Back and typed routes cannot resume it. */
  | { kind: 'forgetJourney' }
  /** The one-hour lock after the attempts ran out (session/lockout.ts setLock). */
  | { kind: 'lock' };

export interface Transition {
  /** Next route (path plus query), or null to stay on the current screen. */
  route: string | null;
  delayMs: number;
  /** Replace the history entry (redirects), so Back does not bounce. */
  replace?: boolean;
  /** Router location state for the next screen (e.g. passport). */
  state?: Record<string, unknown>;
  effects?: Effect[];
}
