/** What erasing a viewer removes, in the words both confirm dialogs use (Settings and demo analytics). */
export function ErasureReach() {
  return (
    <ul>
      <li>their views of every demo, with the time spent on each step;</li>
      <li>their viewer sessions (they are signed out of open share pages) and share access-log entries;</li>
      <li>their address and name in the webhook delivery log; deliveries not sent yet are cancelled.</li>
    </ul>
  );
}
