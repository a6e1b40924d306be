import { useEffect, useState, type FormEvent } from 'react';
import type { ConsoleStaffUser, ConsoleStaffUserCredentials } from '@kyc/contracts';
import { api } from '../api';
import { formatDate, roleLabels } from '../labels';
import type { ScreenProps } from '../screens';
import { count, FieldError, invalidProps, Messages, OnceSecret, useAction, useFailure } from './common';

const grantorRoles = ['admin', 'reviewer', 'viewer'] as const;
type GrantorRole = (typeof grantorRoles)[number];

/** The staff list and the calls that change it (create, role or state, reset the second factor), one at a time. */
function useStaffUsers(onSignedOut: ScreenProps['onSignedOut']) {
  const [users, setUsers] = useState<ConsoleStaffUser[] | undefined>();
  const [shown, setShown] = useState<ConsoleStaffUserCredentials | undefined>();
  const { error, fields, fail, clear } = useFailure(onSignedOut);
  const { busy, notice, run } = useAction(clear, fail);

  useEffect(() => {
    api
      .users()
      .then((u) => setUsers(u.users))
      .catch(fail);
  }, [fail]);

  const create = (body: { email: string; role: GrantorRole; totp: boolean }, created: () => void) =>
    run(async () => {
      const made = await api.createUser(body);
      setShown(made);
      created();
      setUsers((list) => [...(list ?? []), made.user]);
    }, 'Usuario creado.');
  const update = (u: ConsoleStaffUser, change: { role?: GrantorRole; active?: boolean }, done: string) => run(async () => setUsers((await api.updateUser(u.id, change)).users), done);
  const resetTotp = (u: ConsoleStaffUser) =>
    run(async () => {
      const reset = await api.resetTotp(u.id);
      setShown(reset);
      setUsers((list) => list?.map((x) => (x.id === u.id ? reset.user : x)));
    }, `Segundo factor de ${u.email} restablecido.`);

  return { users, shown, setShown, busy, notice, error, fields, create, update, resetTotp };
}

const credentials = (c: ConsoleStaffUserCredentials) => [
  ...(c.password ? [{ label: 'Contraseña', value: c.password }] : []),
  ...(c.totpUri ? [{ label: 'Segundo factor (URI para la app autenticadora)', value: c.totpUri }] : []),
];

/** The grantor's staff: invite (password and second factor shown once), change role, disable, reset the second factor. */
export function Users({ user: me, onSignedOut }: ScreenProps) {
  const { users, shown, setShown, busy, notice, error, fields, create, update, resetTotp } = useStaffUsers(onSignedOut);

  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">Usuarios y roles</h2>
      <Messages error={error} notice={notice} />
      {shown ? <OnceSecret title={`Acceso de ${shown.user.email}`} items={credentials(shown)} onDone={() => setShown(undefined)} /> : null}
      <NewUserForm busy={busy} emailError={fields.email} onCreate={create} />
      {users === undefined ? (
        <p className="hint">Cargando usuarios…</p>
      ) : (
        <table className="cases">
          <caption>{count(users.length, 'usuario', 'usuarios')}</caption>
          <thead>
            <tr>
              <th scope="col">Correo</th>
              <th scope="col">Rol</th>
              <th scope="col">Segundo factor</th>
              <th scope="col">Alta</th>
              <th scope="col">Estado</th>
              <th scope="col">Acciones</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <UserRow key={u.id} user={u} self={u.email === me.email} busy={busy} onUpdate={update} onResetTotp={resetTotp} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

interface NewUserFormProps {
  busy: boolean;
  emailError: string | undefined;
  /** Creates the user; `created` runs once the call succeeded (the form empties its e-mail). */
  onCreate(body: { email: string; role: GrantorRole; totp: boolean }, created: () => void): void;
}

/** The invitation form: e-mail, role and second factor (always on for admins). */
function NewUserForm({ busy, emailError, onCreate }: NewUserFormProps) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<GrantorRole>('reviewer');
  const [totp, setTotp] = useState(true);

  function submit(event: FormEvent) {
    event.preventDefault();
    onCreate({ email: email.trim(), role, totp: role === 'admin' || totp }, () => setEmail(''));
  }

  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <div className="field grow">
        <label htmlFor="user-email">Correo electrónico</label>
        <input id="user-email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.currentTarget.value)} {...invalidProps('user-email', emailError)} />
        <FieldError id="user-email" text={emailError} />
      </div>
      <div className="field">
        <label htmlFor="user-role">Rol</label>
        <select id="user-role" value={role} onChange={(e) => setRole(e.currentTarget.value as GrantorRole)}>
          {grantorRoles.map((r) => (
            <option key={r} value={r}>
              {roleLabels[r]}
            </option>
          ))}
        </select>
      </div>
      <label className="check">
        <input type="checkbox" checked={role === 'admin' || totp} disabled={role === 'admin'} onChange={(e) => setTotp(e.currentTarget.checked)} />
        Segundo factor (obligatorio para administración)
      </label>
      <button type="submit" className="primary" disabled={busy}>
        Crear usuario
      </button>
    </form>
  );
}

interface UserRowProps {
  user: ConsoleStaffUser;
  /** The signed-in user's own row: another admin changes its access. */
  self: boolean;
  busy: boolean;
  onUpdate(u: ConsoleStaffUser, change: { role?: GrantorRole; active?: boolean }, done: string): void;
  onResetTotp(u: ConsoleStaffUser): void;
}

/** One staff member: role (a select for others), second factor, creation, state and actions. */
function UserRow({ user: u, self, busy, onUpdate, onResetTotp }: UserRowProps) {
  return (
    <tr>
      <td data-label="Correo">
        {u.email}
        {self ? <span className="muted"> (tú)</span> : null}
      </td>
      <td data-label="Rol">
        {self ? (
          roleLabels[u.role]
        ) : (
          <select aria-label={`Rol de ${u.email}`} value={u.role} disabled={busy} onChange={(e) => onUpdate(u, { role: e.currentTarget.value as GrantorRole }, `Rol de ${u.email} cambiado.`)}>
            {grantorRoles.map((r) => (
              <option key={r} value={r}>
                {roleLabels[r]}
              </option>
            ))}
          </select>
        )}
      </td>
      <td data-label="Segundo factor">{u.totp ? 'Activo' : <span className="muted">Sin segundo factor</span>}</td>
      <td data-label="Alta">{formatDate(u.createdAt)}</td>
      <td data-label="Estado">{u.active ? <span className="badge badge-green">Activo</span> : <span className="badge badge-abandoned">Desactivado</span>}</td>
      <td data-label="Acciones" className="row-actions">
        {self ? (
          <span className="muted">Otro administrador cambia tu acceso</span>
        ) : (
          <>
            <button type="button" className="secondary" disabled={busy} onClick={() => onUpdate(u, { active: !u.active }, `${u.email} ${u.active ? 'desactivado' : 'activado'}.`)}>
              {u.active ? 'Desactivar' : 'Activar'}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => onResetTotp(u)} aria-label={`Restablecer el segundo factor de ${u.email}`}>
              Restablecer segundo factor
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
