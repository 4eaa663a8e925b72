/** A small line of the months' values, drawn for the eye only: the table below holds the figures. */
export function Sparkline({ values }: { values: number[] }) {
  if (values.length < 2) return null;
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const points = values.map((v, i) => `${((i / (values.length - 1)) * 100).toFixed(1)},${(22 - ((v - low) / (high - low || 1)) * 20).toFixed(1)}`).join(' ');
  return (
    <svg className="spark" viewBox="0 0 100 24" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <polyline points={points} />
    </svg>
  );
}
