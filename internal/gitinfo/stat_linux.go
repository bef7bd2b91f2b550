package gitinfo

import "syscall"

// statData is the stat information git records in the index, each
// field cut to 32 bits as the index stores it.
type statData struct {
	ctimeSec, ctimeNsec uint32
	mtimeSec, mtimeNsec uint32
	dev, ino            uint32
	mode                uint32 // the full st_mode
	uid, gid            uint32
	size                uint32
	fullSize            int64
}

// lstatData calls lstat(2) on name.
func lstatData(name string) (statData, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(name, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return statData{}, err
		}
		break
	}
	return statData{
		ctimeSec: uint32(st.Ctim.Sec), ctimeNsec: uint32(st.Ctim.Nsec),
		mtimeSec: uint32(st.Mtim.Sec), mtimeNsec: uint32(st.Mtim.Nsec),
		dev: uint32(st.Dev), ino: uint32(st.Ino), mode: st.Mode,
		uid: st.Uid, gid: st.Gid, size: uint32(st.Size), fullSize: st.Size,
	}, nil
}

// statSupported reports whether lstatData reads real stat data here.
const statSupported = true
