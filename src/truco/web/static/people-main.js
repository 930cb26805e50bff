// The one page shell of /account, /players/<name>, /leaderboard and /daily: the page's module.
const path = location.pathname;
if (path.startsWith("/players/")) import("/static/player-page.js");
else if (path.startsWith("/leaderboard")) import("/static/leaderboard-page.js");
else if (path.startsWith("/daily")) import("/static/daily.js");
else import("/static/account-page.js");
