import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { ROLE_LABEL } from './roles.js';
import { useSession } from './session.js';

interface NavItem {
  href: string;
  label: string;
  admin?: boolean;
}

const NAV: NavItem[] = [
  { href: '/inbox', label: 'Inbox' },
  { href: '/runs', label: 'Runs' },
  { href: '/rules', label: 'Rules' },
  { href: '/policy', label: 'Policy' },
  { href: '/audit', label: 'Audit' },
  { href: '/metrics', label: 'Metrics' },
  { href: '/admin/agents', label: 'Agents', admin: true },
  { href: '/admin/users', label: 'Users', admin: true },
];

/** The frame of every signed-in screen: skip link, navigation, who is signed in. */
export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location] = useLocation();
  const user = session.user;
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
          <button type="button" className="button-link" onClick={() => void session.logout()}>
            Sign out
          </button>
        </div>
      </header>
      {children}
    </>
  );
}
