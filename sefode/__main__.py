from sefode.cli import main

raise SystemExit(main())
