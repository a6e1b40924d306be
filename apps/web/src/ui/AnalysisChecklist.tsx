import { texts as capture } from '../i18n/es-MX/capture';
import { Icon } from './icons';
import './capture.css';

export type ChecklistItemStatus = 'pending' | 'active' | 'done';

export interface AnalysisItem {
  id: keyof typeof capture.analysis.items;
  status: ChecklistItemStatus;
}

interface AnalysisChecklistProps {
  items: readonly AnalysisItem[];
  /** Upload progress in percent (null: unknown size). */
  percent: number | null;
  /** One line on the stage: sending, sent, read. Announced politely. */
  status: string;
}

/**
 * The analysis progress checklist. Items appear one after another (a short staggered reveal), but each
 * one is ticked only by real progress, which the caller derives from the upload and the answer; the list
 * is an aria-live region, so every tick is announced.
 */
export function AnalysisChecklist({ items, percent, status }: AnalysisChecklistProps) {
  return (
    <div className="analysis">
      <progress className="analysis__progress" max={100} value={percent ?? undefined} aria-label={status} />
      <p role="status" className="analysis__status">
        {status}
      </p>
      <ul className="analysis__list" aria-live="polite">
        {items.map((item, index) => (
          <li key={item.id} className={`analysis__item analysis__item--${item.status}`} style={{ animationDelay: `${index * 180}ms` }} data-status={item.status}>
            <span className="analysis__icon" aria-hidden="true">
              {item.status === 'done' ? <Icon name="check" /> : item.status === 'active' ? <span className="analysis__spinner" /> : null}
            </span>
            <span>
              {capture.analysis.items[item.id]}
              <span className="visually-hidden">: {capture.analysis.status[item.status]}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
