import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { FalsePositiveBanner } from '../components/FalsePositiveBanner.js';
import { NotificationToggle } from '../components/NotificationToggle.js';
import { documentTitle, screenName, useScreenDetailText } from './page-title.js';
import { ROLE_LABEL } from './roles.js';
import { useSession } from './session.js';
import { usePendingWatch } from './use-pending-watch.js';

interface NavItem {
  href: string;
  label: string;
  admin?: boolean;
}

const NAV: NavItem[] = [
  { href: '/inbox', label: 'Inbox' },
  { href: '/runs', label: 'Runs' },
  { href: '/rules', label: 'Rules' },
  { href: '/trust', label: 'Trust' },
  { href: '/policy', label: 'Policy' },
  { href: '/audit', label: 'Audit' },
  { href: '/metrics', label: 'Metrics' },
  { href: '/whitelists', label: 'Whitelists' },
  { href: '/notifications', label: 'Notifications' },
  { href: '/admin/agents', label: 'Agents', admin: true },
  { href: '/admin/users', label: 'Users', admin: true },
  { href: '/review-health', label: 'Review health', admin: true },
];

/** The frame of every signed-in screen: skip link, navigation, who is signed in. */
export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location, navigate] = useLocation();
  const [warning, setWarning] = useState(false);
  const user = session.user;
  const pending = usePendingWatch();
  const detail = useScreenDetailText();
  useEffect(() => {
    document.title = documentTitle(detail ?? screenName(location), pending.count);
  }, [detail, location, pending.count]);
  const { state } = session;
  const canComeBack = state.status === 'signed-in' && (state.hasPassword || state.singleSignOn);
  // Without a password or the provider, a new login link is the only way back in: say so before signing out.
  const signOut = () => (canComeBack ? void session.logout() : setWarning(true));
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link href="/inbox" className="brand">
          Gatehouse
        </Link>
        <nav aria-label="Main">
          <ul className="nav-list">
            {NAV.filter((item) => !item.admin || session.can('admin')).map((item) => {
              const current = location === item.href || location.startsWith(`${item.href}/`);
              return (
                <li key={item.href}>
                  <Link href={item.href} aria-current={current ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="whoami">
          <span>
            {user.name} <span className="role-badge">{ROLE_LABEL[user.role]}</span>
          </span>
          <NotificationToggle />
          <Link href="/account">Account</Link>
          <button type="button" className="button-link" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      {/* The people who may whitelist hear when a pattern misfires too often. */}
      {session.can('tech_lead') && <FalsePositiveBanner />}
      {children}
      <ConfirmDialog
        open={warning}
        title="Sign out without a password?"
        confirmLabel="Sign out anyway"
        danger
        busy={false}
        error={null}
        onConfirm={() => {
          setWarning(false);
          void session.logout();
        }}
        onCancel={() => {
          setWarning(false);
          navigate('/account');
        }}
      >
        <p>
          You have no password yet. Once signed out you can only come back with a new login link from an
          admin, or from <code>gatehouse admin login-link</code> on the server. Cancel to set a password
          first.
        </p>
      </ConfirmDialog>
    </>
  );
}
