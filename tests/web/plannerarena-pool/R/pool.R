# Planner Arena's one call into pool (server.R): dbPool(RSQLite::SQLite(), dbname = database). One
# connection serves the test's single browser session.
dbPool <- function(drv, ...) DBI::dbConnect(drv, ...)
