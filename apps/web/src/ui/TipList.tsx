import { Icon, type IconName } from './icons';

/** The icon-led tips list of the preparation screens. */
export function TipList({ tips }: { tips: ReadonlyArray<{ icon: IconName; text: string }> }) {
  return (
    <ul className="tips">
      {tips.map((tip) => (
        <li key={tip.icon}>
          <Icon name={tip.icon} />
          {tip.text}
        </li>
      ))}
    </ul>
  );
}
