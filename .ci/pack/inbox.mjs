// Opens the login link the installed server printed, in Debian's Chromium, and waits for the inbox
// to list the pending gate. playwright-core comes from the repository (argument 1).
const [playwright, link, title] = process.argv.slice(2);
const { chromium } = await import(playwright);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
  ],
  timeout: 30_000,
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  console.log('signed in with the login link: the inbox is open');
  // A row links to the gate by the headline its page leads with; the agent's own title stands beside it.
  const row = page.locator('.inbox-row-main').filter({ hasText: title });
  await row.getByRole('link').first().waitFor();
  console.log(`the inbox lists the pending gate "${title}"`);
} finally {
  await browser.close();
}
