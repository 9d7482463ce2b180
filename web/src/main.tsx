import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app';
import { prefetchLinksOnIntent } from './routing/link-prefetch';
import { preloadPath } from './routing/routes';
import './styles/tokens.css';
import './styles/base.css';
import './styles/buttons.css';
import './styles/forms.css';
import './styles/feedback.css';
import './styles/dialog.css';
import './styles/table.css';
import './styles/page.css';
import './styles/layout.css';
import './styles/demos.css';
import './styles/webhooks.css';
import './styles/domains.css';
import './styles/audit.css';

// The page of this address starts loading now, beside the session check, instead of after it.
preloadPath(window.location.pathname);
prefetchLinksOnIntent();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
