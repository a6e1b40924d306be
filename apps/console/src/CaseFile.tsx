import { useEffect, useState, type FormEvent } from 'react';
import { consoleReviewReasons, type ConsoleReviewReason } from '@kyc/contracts/console-routes';
import type { ConsoleCaseFile, ConsoleReviewDecision } from '@kyc/contracts';
import { api, ApiError } from './api';
import { CaseMedia } from './CaseMedia';
import { checkOutcomeLabels, consentLabels, decisionLabels, effectLabels, formatDate, imageLabels, reasonLabels, statusText } from './labels';

interface Props {
  uuidTrx: string;
  /** The grantor a platform operator is looking at. */
  grantorId: string | undefined;
  onBack(): void;
  onReviewed(): void;
  onSignedOut(notice?: string): void;
}

const yesNo = (value: boolean | null) => (value === null ? 'Sin dato' : value ? 'Sí' : 'No');

/** One case: what was read, checked and decided, and the review form for the roles that may decide. */
export function CaseFile({ uuidTrx, grantorId, onBack, onReviewed, onSignedOut }: Props) {
  const [file, setFile] = useState<ConsoleCaseFile | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    api
      .caseFile(uuidTrx, grantorId)
      .then((f) => current && setFile(f))
      .catch((e) => {
        if (!current) return;
        if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
        setError(e instanceof ApiError ? e.text : 'No pudimos cargar el expediente.');
      });
    return () => {
      current = false;
    };
  }, [uuidTrx, grantorId, onSignedOut]);

  return (
    <main className="page case-file">
      <button type="button" className="secondary back" onClick={onBack}>
        ← Volver a la lista
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {!file ? (
        error ? null : (
          <p className="hint" aria-busy="true">
            Cargando expediente…
          </p>
        )
      ) : (
        <>
          <h1>
            Expediente <code>{file.folio}</code>
          </h1>
          <p className="summary">
            <span className={`badge badge-${file.case.status.toLowerCase()}`}>{statusText(file.case)}</span>
            <span>{file.case.holderName ?? 'Sin nombre todavía'}</span>
            <span className="muted">Creado el {formatDate(file.case.createdAt)}</span>
          </p>

          <ReviewPanel
            file={file}
            uuidTrx={uuidTrx}
            grantorId={grantorId}
            onSignedOut={onSignedOut}
            onReviewed={(f) => {
              setFile(f);
              onReviewed();
            }}
          />

          <section aria-labelledby="score-title">
            <h2 id="score-title">Calificación</h2>
            <p>
              Semáforo: <span className={`badge badge-${file.score.flag.toLowerCase()}`}>{{ GREEN: 'Verde', YELLOW: 'Amarillo', RED: 'Rojo' }[file.score.flag]}</span>
            </p>
            <ul className="rules">
              {file.score.rules.map((r) => (
                <li key={r.rule}>
                  <strong>{r.summary}</strong> — {checkOutcomeLabels[r.outcome]}
                  {r.outcome !== 'passed' ? `, ${effectLabels[r.effect]}` : ''}
                  {r.detail && !r.detail.startsWith(r.summary) ? <span className="muted"> · {r.detail}</span> : null}
                </li>
              ))}
            </ul>
          </section>

          {file.images.length > 0 ? (
            <section aria-labelledby="images-title">
              <h2 id="images-title">Imágenes</h2>
              <div className="images">
                {file.images.map((which) => (
                  <figure key={which}>
                    <img src={api.imageUrl(uuidTrx, which, grantorId)} alt={imageLabels[which]} loading="lazy" />
                    <figcaption>{imageLabels[which]}</figcaption>
                  </figure>
                ))}
              </div>
            </section>
          ) : null}

          <section aria-labelledby="id-title">
            <h2 id="id-title">Identificación</h2>
            {file.idRead.length === 0 ? <p className="hint">No se leyó ninguna identificación.</p> : null}
            {file.idRead.map((side) => (
              <div key={side.side}>
                <h3>
                  {side.side === 'front' ? 'Frente' : 'Reverso'}
                  {side.documentType ? ` (${side.documentType})` : ''}
                </h3>
                <Fields rows={side.fields} />
              </div>
            ))}
            <h3>Datos confirmados por la persona</h3>
            {file.confirmed.length === 0 ? (
              <p className="hint">La persona no confirmó datos todavía.</p>
            ) : (
              <dl className="fields">
                {file.confirmed.map((f) => (
                  <div key={f.name}>
                    <dt>{f.label}</dt>
                    <dd>
                      {f.value} {f.typed ? <span className="badge badge-typed">Escrito por la persona</span> : null}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </section>

          <section aria-labelledby="checks-title">
            <h2 id="checks-title">Validaciones</h2>
            <ul className="rules">
              {file.checks.map((c) => (
                <li key={c.check}>
                  <strong>{c.label}</strong> — {checkOutcomeLabels[c.outcome]}
                  {c.detail ? <span className="muted"> · {c.detail}</span> : null}
                  {c.items.length > 0 ? (
                    <ul>
                      {c.items.map((i) => (
                        <li key={i.rule}>
                          {i.passed ? '✓' : '✗'} {i.rule}
                          {i.detail ? <span className="muted"> · {i.detail}</span> : null}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="face-title">
            <h2 id="face-title">Rostro y prueba de vida</h2>
            {!file.face ? (
              <p className="hint">Sin video de rostro.</p>
            ) : (
              <dl className="fields">
                <div>
                  <dt>Coincidencia</dt>
                  <dd>{yesNo(file.face.match)}</dd>
                </div>
                <div>
                  <dt>Puntaje / umbral</dt>
                  <dd>
                    {file.face.score === null ? 'Sin puntaje' : file.face.score.toFixed(3)} / {file.face.threshold.toFixed(3)}
                  </dd>
                </div>
                <div>
                  <dt>Prueba de vida</dt>
                  <dd>
                    {file.face.liveness.passed ? 'Superada' : 'No superada'}
                    {file.face.liveness.spoof ? ' (posible suplantación)' : ''}
                  </dd>
                </div>
                <div>
                  <dt>Código hablado</dt>
                  <dd>
                    {file.face.spokenCode.verified === null ? 'No verificado' : file.face.spokenCode.verified ? 'Correcto' : 'Incorrecto'}
                    <span className="muted"> · {file.face.spokenCode.detail}</span>
                  </dd>
                </div>
              </dl>
            )}
          </section>

          <CaseMedia file={file} uuidTrx={uuidTrx} grantorId={grantorId} onSignedOut={onSignedOut} />

          <section aria-labelledby="proof-title">
            <h2 id="proof-title">Comprobante de domicilio</h2>
            {!file.proof ? (
              <p className="hint">Sin comprobante de domicilio.</p>
            ) : (
              <>
                <p>
                  {checkOutcomeLabels[file.proof.outcome]} · nombre coincide con la identificación: {yesNo(file.proof.nameMatchesId)} · vigente: {yesNo(file.proof.recent)}
                  {file.proof.detail ? <span className="muted"> · {file.proof.detail}</span> : null}
                </p>
                <Fields rows={file.proof.fields} />
              </>
            )}
          </section>

          <section aria-labelledby="consents-title">
            <h2 id="consents-title">Consentimientos</h2>
            {file.consents.length === 0 ? <p className="hint">Sin consentimientos registrados.</p> : null}
            <ul className="rules">
              {file.consents.map((c) => (
                <li key={`${c.consent}-${c.acceptedAt}`}>
                  <strong>{consentLabels[c.consent] ?? c.consent}</strong> — versión {c.version}, aceptado el {formatDate(c.acceptedAt)}
                  <br />
                  <span className="muted">
                    SHA-256 del texto: <code className="hash">{c.sha256}</code>
                  </span>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="timeline-title">
            <h2 id="timeline-title">Historial</h2>
            <ol className="timeline">
              {file.timeline.map((e, i) => (
                <li key={`${e.at}-${i}`}>
                  <time dateTime={e.at}>{formatDate(e.at)}</time> <span className="muted">{e.source}</span> <strong>{e.step}</strong>
                  {e.detail ? ` — ${e.detail}` : ''}
                </li>
              ))}
            </ol>
          </section>
        </>
      )}
    </main>
  );
}

function Fields({ rows }: { rows: { name: string; label: string; value: string }[] }) {
  if (rows.length === 0) return <p className="hint">Sin datos leídos.</p>;
  return (
    <dl className="fields">
      {rows.map((f) => (
        <div key={f.name}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface ReviewProps {
  file: ConsoleCaseFile;
  uuidTrx: string;
  grantorId: string | undefined;
  onReviewed(file: ConsoleCaseFile): void;
  onSignedOut(notice?: string): void;
}

/** The decision, or the form to take it (reviewers and admins, finished cases). */
function ReviewPanel({ file, uuidTrx, grantorId, onReviewed, onSignedOut }: ReviewProps) {
  const [decision, setDecision] = useState<ConsoleReviewDecision>('approve');
  const [reason, setReason] = useState<ConsoleReviewReason>(consoleReviewReasons.approve[0]);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  if (file.review) {
    return (
      <section aria-labelledby="review-title" className="review done">
        <h2 id="review-title">Revisión</h2>
        <p>
          <strong>{decisionLabels[file.review.decision]}</strong> · {reasonLabels[file.review.reason as ConsoleReviewReason] ?? file.review.reason} · por {file.review.reviewer} el{' '}
          {formatDate(file.review.at)}
        </p>
        {file.review.note ? <p className="note">{file.review.note}</p> : null}
      </section>
    );
  }
  const finished = ['GREEN', 'YELLOW', 'RED', 'finished'].includes(file.case.status);
  if (!file.mayReview || !finished) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      onReviewed(await api.review(uuidTrx, { decision, reason, note }, grantorId));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return onSignedOut(e.text);
      setError(e instanceof ApiError ? e.text : 'No pudimos guardar la revisión.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="review-title" className="review">
      <h2 id="review-title">Revisión</h2>
      <form onSubmit={submit}>
        <fieldset className="decision">
          <legend>Decisión</legend>
          {(['approve', 'reject'] as const).map((d) => (
            <label key={d} className="choice">
              <input
                type="radio"
                name="decision"
                value={d}
                checked={decision === d}
                onChange={() => {
                  setDecision(d);
                  setReason(consoleReviewReasons[d][0]);
                }}
              />
              {d === 'approve' ? 'Aprobar' : 'Rechazar'}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="reason">Motivo</label>
          <select id="reason" value={reason} onChange={(e) => setReason(e.currentTarget.value as ConsoleReviewReason)}>
            {consoleReviewReasons[decision].map((r) => (
              <option key={r} value={r}>
                {reasonLabels[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="note">Nota</label>
          <textarea id="note" rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        </div>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {decision === 'approve' ? 'Aprobar expediente' : 'Rechazar expediente'}
        </button>
      </form>
    </section>
  );
}
