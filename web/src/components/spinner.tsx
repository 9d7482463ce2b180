export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <span className="spinner" style={{ width: size, height: size }} role={label ? 'status' : undefined}>
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}

/** The placeholder of a region whose data is on its way. */
export function LoadingBlock({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-block">
      <Spinner size={20} />
      <span role="status">{label}</span>
    </div>
  );
}
