import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { parseSsoRoles, roleForGroups } from './sso-config.js';

describe('the group → role mapping', () => {
  const mapping = parseSsoRoles('gatehouse-admins: admin, leads: tech_lead, *: viewer');

  it('reads "group: role" entries, groups with spaces and colons included', () => {
    expect(parseSsoRoles('Tech Leads: tech_lead, urn:acme:eng: developer')).toEqual([
      { group: 'Tech Leads', role: 'tech_lead' },
      { group: 'urn:acme:eng', role: 'developer' },
    ]);
  });

  it('gives the highest role any group maps to, and * to everyone', () => {
    expect(roleForGroups(mapping, ['leads', 'gatehouse-admins'])).toBe('admin');
    expect(roleForGroups(mapping, ['leads'])).toBe('tech_lead');
    expect(roleForGroups(mapping, [])).toBe('viewer');
  });

  it('maps a person in no named group to nothing without *', () => {
    expect(roleForGroups(parseSsoRoles('leads: tech_lead'), ['sales'])).toBeNull();
  });

  it.each(['', 'leads', 'leads: owner', ': admin'])('refuses %j naming the variable', (text) => {
    expect(() => parseSsoRoles(text)).toThrow(/GATEHOUSE_SSO_ROLES/);
  });
});

describe('single sign-on settings', () => {
  const base = {
    GATEHOUSE_SSO_ISSUER: 'https://id.example.com/realms/eng',
    GATEHOUSE_SSO_CLIENT_ID: 'gatehouse',
    GATEHOUSE_SSO_ROLES: '*: developer',
  };

  it('is off without an issuer and on with one, with the defaults', () => {
    expect(loadConfig({}).sso).toBeNull();
    expect(loadConfig(base).sso).toEqual({
      issuer: 'https://id.example.com/realms/eng',
      clientId: 'gatehouse',
      clientSecret: null,
      scopes: 'openid profile email',
      groupsClaim: 'groups',
      roles: [{ group: '*', role: 'developer' }],
      providerName: 'single sign-on',
    });
  });

  it('takes http only for a provider on this host', () => {
    expect(() => loadConfig({ ...base, GATEHOUSE_SSO_ISSUER: 'http://id.example.com' })).toThrow(
      /GATEHOUSE_SSO_ISSUER: must be https/,
    );
    expect(loadConfig({ ...base, GATEHOUSE_SSO_ISSUER: 'http://127.0.0.1:9000' }).sso?.issuer).toBe(
      'http://127.0.0.1:9000',
    );
  });

  it('names what is missing', () => {
    expect(() => loadConfig({ ...base, GATEHOUSE_SSO_ROLES: undefined })).toThrow(
      /GATEHOUSE_SSO_ROLES: required/,
    );
    expect(() => loadConfig({ ...base, GATEHOUSE_SSO_SCOPES: 'profile' })).toThrow(/must include openid/);
    expect(() => loadConfig({ GATEHOUSE_MCP_OAUTH_AGENT: 'team' })).toThrow(/needs GATEHOUSE_SSO_ISSUER/);
    expect(loadConfig({ ...base, GATEHOUSE_MCP_OAUTH_AGENT: 'team' }).mcpOAuth).toEqual({
      agentName: 'team',
    });
  });
});
