import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state';

export function NotFoundPage() {
  return (
    <EmptyState title="Page not found" action={<Link to="/demos">Go to your demos</Link>}>
      There is nothing at this address. It may have moved, or the link may be mistyped.
    </EmptyState>
  );
}
