import { Link } from 'react-router';

export function Brand() {
  return (
    <Link to="/demos" className="brand" aria-label="Demoshare home">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--color-accent)" />
        <path d="M12 9.5v13l11-6.5z" fill="#fff" />
      </svg>
      <span className="brand-name">Demoshare</span>
    </Link>
  );
}
