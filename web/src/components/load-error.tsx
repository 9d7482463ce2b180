import type { ApiError } from '../api/client';
import { Alert } from './alert';
import { Button } from './button';

export function LoadError({ error, onRetry }: { error: ApiError; onRetry(): void }) {
  return (
    <Alert tone="danger" title="This could not be loaded">
      <div className="row row-wrap">
        <span>{error.message}</span>
        <Button size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </Alert>
  );
}
