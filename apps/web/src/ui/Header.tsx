import { paramValue } from '@kyc/contracts/params';
import { useGrantorParams } from '../session/grantor';

const imageSource = /^(data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]|https?:\/\/|\/(?!\/))/i;

/** LOGO_OTORGANTE when it is an image data: URI, an http(s) URL or a same-origin path; '' otherwise. */
export function safeLogoSource(value: string): string {
  const trimmed = value.trim();
  return imageSource.test(trimmed) ? trimmed : '';
}

export function Header() {
  const params = useGrantorParams();
  const logo = safeLogoSource(paramValue(params, 'LOGO_OTORGANTE'));
  const name = paramValue(params, 'NOMBRE_CORTO');
  return <header className="app-header">{logo ? <img className="app-header__logo" src={logo} alt={name} /> : name ? <span className="app-header__name">{name}</span> : null}</header>;
}
