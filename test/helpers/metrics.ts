/** The database pool's gauge as /metrics shows it (`demoshare_database_connections{state=...}`), from its text. */
export function poolGauge(metricsText: string) {
  const value = (state: string) =>
    Number(new RegExp(`^demoshare_database_connections\\{state="${state}"\\} (\\d+)$`, 'm').exec(metricsText)?.[1]);
  return { in_use: value('in_use'), idle: value('idle'), waiting: value('waiting') };
}
