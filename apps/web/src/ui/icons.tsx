/** Inline icons (decorative: hidden from assistive technology). Paths drawn for a 24x24 grid. */
const paths = {
  id: 'M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm1 2v10h16V7H4zm2 2h5v5H6V9zm7 1h5v1.5h-5V10zm0 3h4v1.5h-4V13z',
  camera: 'M9 4h6l1.5 2H20a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h3.5L9 4zm3 4a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zm0 2a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z',
  wifi: 'M12 18.5a1.75 1.75 0 1 1 0 3.5 1.75 1.75 0 0 1 0-3.5zM12 13c2.1 0 4 .85 5.4 2.2l-1.45 1.45A5.6 5.6 0 0 0 12 15a5.6 5.6 0 0 0-3.95 1.65L6.6 15.2A7.6 7.6 0 0 1 12 13zm0-4.5c3.35 0 6.4 1.35 8.6 3.55l-1.4 1.4A10.1 10.1 0 0 0 12 10.5c-2.8 0-5.35 1.15-7.2 2.95l-1.4-1.4A12.1 12.1 0 0 1 12 8.5zM12 4c4.6 0 8.75 1.85 11.8 4.85l-1.4 1.45A14.6 14.6 0 0 0 12 6 14.6 14.6 0 0 0 1.6 10.3L.2 8.85A16.6 16.6 0 0 1 12 4z',
  check: 'M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L21.1 7.4 19.7 6z',
  sun: 'M12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm-1-6h2v3h-2V1zm0 19h2v3h-2v-3zM1 11h3v2H1v-2zm19 0h3v2h-3v-2zM4.2 5.6l1.4-1.4 2.1 2.1-1.4 1.4-2.1-2.1zm12.1 12.1 1.4-1.4 2.1 2.1-1.4 1.4-2.1-2.1zM4.2 18.4l2.1-2.1 1.4 1.4-2.1 2.1-1.4-1.4zM16.3 6.3l2.1-2.1 1.4 1.4-2.1 2.1-1.4-1.4z',
  focus: 'M3 3h6v2H5v4H3V3zm12 0h6v6h-2V5h-4V3zM3 15h2v4h4v2H3v-6zm16 0h2v6h-6v-2h4v-4zM12 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8z',
  calendar: 'M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3V2zM5 9v10h14V9H5zm2 2h4v4H7v-4z',
  phone: 'M8 1h8a2 2 0 0 1 2 2v18a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V3a2 2 0 0 1 2-2zm0 3v15h8V4H8zm4 16a1 1 0 1 1 0 2 1 1 0 0 1 0-2z',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={className ? `icon ${className}` : 'icon'} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill="currentColor" />
    </svg>
  );
}
