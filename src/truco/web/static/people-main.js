// The one page shell of /account, /players/<name> and /leaderboard: the page's own module.
const path = location.pathname;
if (path.startsWith("/players/")) import("/static/player-page.js");
else if (path.startsWith("/leaderboard")) import("/static/leaderboard-page.js");
else import("/static/account-page.js");
