// Command cantstop is the Can't Stop table companion: the device's service, the rules engine on
// the command line, the dice reader, calibration and the simulated table. It only wires cobra
// commands to the packages that do the work.
//
//	cantstop run                              # the device (systemd's cantstop.service): companion, camera, OLED, buttons
//	cantstop play --sim                       # the same loop on a simulated table, keyboard and terminal
//	cantstop moves 2:0::6@1,10@1 2435         # legal choices for a roll, and why others are refused
//	cantstop odds 6 7 8                       # exact chance the next roll busts
//	cantstop dice read roll.jpg --out seen.png
//	cantstop dice bench photos/ --max-dice 6  # score the reader (package dicebench)
//	cantstop camera preview                   # live view for aiming the camera, terminal and http://127.0.0.1:8080/
//	cantstop calibrate --camera v4l2:/dev/video0
//	cantstop doctor; cantstop config check; cantstop version
//
// Each command lives in a *_cmds.go file (engine, dice, camera, calibrate, companion) or deploy_*.go
// (run, doctor, config, version, and the devices run opens). gc.go sets GOGC=400 and a 20 MiB
// soft memory limit unless the environment sets them.
package main
